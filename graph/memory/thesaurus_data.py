"""Everyday synonym groups (Korean and English) for query expansion in recall.

Each line of SYNONYM_GROUPS is one group of words that mean the same thing in
everyday adult conversation about life and work (true or near synonyms,
honorific and colloquial variants, abbreviations and loanword spellings).
It was written by hand from general knowledge of both languages, domain by
domain, and is not tuned to any particular conversation or evaluation data.
"""

SYNONYM_GROUPS = """
# family
아버지 | 아빠 | 부친 | 아버님
어머니 | 엄마 | 모친 | 어머님
부모 | 부모님 | 양친
할아버지 | 할아버님 | 조부
할머니 | 할머님 | 조모
조부모 | 조부모님
아들 | 아드님
딸 | 따님
자녀 | 자식
아이 | 애 | 꼬마 | 어린이 | 아동
아기 | 아가 | 애기 | 갓난아기 | 신생아 | 베이비
남편 | 신랑 | 바깥양반
아내 | 부인 | 와이프 | 마누라 | 집사람 | 안사람
배우자 | 반려자
형 | 형님 | 오빠
누나 | 누님 | 언니
동생 | 아우
형제 | 형제자매
삼촌 | 숙부 | 작은아버지
외삼촌 | 외숙부
이모 | 이모님
고모 | 고모님
손주 | 손자
장인 | 장인어른 | 빙부
장모 | 장모님 | 빙모
시아버지 | 시아버님
시어머니 | 시어머님
시댁 | 시집 | 시가
처가 | 처갓집
친정 | 친정집
가족 | 식구 | 가솔
친척 | 친지 | 친인척 | 일가
결혼 | 혼인
결혼식 | 혼례 | 예식 | 웨딩
이혼 | 갈라서다
임신 | 회임
출산 | 분만 | 해산
남자친구 | 남친
여자친구 | 여친
애인 | 연인
약혼자 | 피앙세

# people and roles
의사 | 의사선생님 | 닥터
간호사 | 간호원
선생님 | 선생 | 교사 | 쌤
교수 | 교수님
학생 | 재학생
상사 | 윗사람 | 상관 | 보스 | 윗분
사장 | 사장님 | 대표 | 대표님 | 대표이사 | 오너
팀장 | 팀장님
부장 | 부장님
과장 | 과장님
동료 | 직장동료 | 회사동료
부하 | 부하직원 | 아랫사람
직원 | 사원 | 임직원 | 종업원
회사원 | 직장인 | 샐러리맨
신입 | 신입사원 | 신참 | 뉴비
선배 | 선배님
집주인 | 건물주 | 주인집 | 임대인
세입자 | 임차인
이웃 | 이웃집 | 이웃사람 | 옆집
친구 | 벗 | 친우 | 동무
절친 | 베프 | 단짝 | 베스트프렌드
고객 | 손님 | 고객님 | 클라이언트
거래처 | 고객사 | 파트너사
변호사 | 변호인 | 로이어
운전기사 | 운전사 | 기사님 | 드라이버
배달원 | 배달기사 | 라이더
경찰 | 경찰관 | 순경 | 경관
소방관 | 소방대원
미용사 | 헤어디자이너
요리사 | 셰프 | 쉐프 | 주방장
점원 | 판매원 | 매장직원
알바 | 아르바이트 | 알바생 | 파트타이머
상담사 | 상담원 | 카운슬러
약사 | 약제사
수의사 | 동물의사
비서 | 어시스턴트
관리자 | 매니저 | 책임자 | 담당자
아주머니 | 아줌마 | 아주머님
아저씨 | 아재
어르신 | 노인 | 연장자
남자 | 남성 | 사내
여자 | 여성 | 여인
청소년 | 십대 | 틴에이저
가사도우미 | 가정부 | 파출부 | 도우미
베이비시터 | 보모 | 육아도우미 | 시터
룸메이트 | 룸메 | 동거인
멘토 | 조언자 | 스승

# body and health
병원 | 의원 | 클리닉
치과 | 치과의원
한의원 | 한방병원
약 | 약물 | 의약품 | 약품
약국 | 드럭스토어
처방 | 처방전
감기 | 고뿔
독감 | 인플루엔자 | 플루
아프다 | 편찮다
질병 | 질환 | 병 | 병환
부상 | 외상
수술 | 시술
건강검진 | 검진 | 종합검진 | 건강검사
진료 | 진찰
몸무게 | 체중
다이어트 | 감량 | 체중감량 | 살빼기
피곤하다 | 지치다 | 고단하다 | 피로하다
피로 | 피곤 | 피곤함
잠 | 수면 | 취침
자다 | 주무시다
불면증 | 불면
우울 | 우울증 | 우울감
토하다 | 구토 | 게우다 | 오바이트
배탈 | 복통 | 배앓이
요통 | 허리통증
치아 | 이빨
얼굴 | 안면 | 낯
렌즈 | 콘택트렌즈 | 콘택트
응급실 | 응급센터
구급차 | 앰뷸런스 | 앰뷸란스
건강보험 | 의료보험
생리 | 월경
백신 | 예방접종 | 접종
알레르기 | 알러지 | 앨러지
물리치료 | 재활치료
두통 | 머리앓이

# food and eating
밥 | 식사 | 끼니 | 진지
먹다 | 드시다 | 잡수시다
아침밥 | 아침식사 | 조식
점심 | 점심밥 | 점심식사 | 런치
저녁밥 | 저녁식사 | 석식 | 디너
야식 | 밤참
간식 | 주전부리 | 군것질 | 스낵 | 간식거리
식당 | 음식점 | 레스토랑 | 밥집
술집 | 주점 | 호프 | 호프집 | 포차 | 포장마차
빵집 | 베이커리 | 제과점
배달 | 딜리버리
포장 | 테이크아웃
음식 | 요리 | 먹거리 | 먹을거리 | 푸드
맛있다 | 맛나다 | 존맛
맛없다 | 노맛
배고프다 | 출출하다 | 시장하다
반찬 | 밑반찬
고기 | 육류
돼지고기 | 돈육
소고기 | 쇠고기 | 우육
닭고기 | 계육
치킨 | 통닭 | 후라이드치킨
채소 | 야채 | 푸성귀
과일 | 과실 | 후르츠
생선 | 물고기
해산물 | 해물 | 씨푸드
감자튀김 | 프렌치프라이 | 후렌치후라이
계란 | 달걀 | 에그
우유 | 밀크
설탕 | 슈가
디저트 | 후식
케이크 | 케익
메뉴 | 차림표 | 메뉴판
주문 | 오더
뷔페 | 부페
채식주의자 | 베지테리언 | 채식인
비건 | 완전채식
맵다 | 얼큰하다
요리법 | 레시피 | 조리법
장보기 | 장보다
식료품 | 그로서리
도시락 | 벤또 | 런치박스
회식 | 팀회식
외식 | 매식

# drinks and coffee
술 | 주류 | 알코올 | 알콜
맥주 | 비어 | 생맥주 | 생맥
소주 | 쏘주
와인 | 포도주
막걸리 | 탁주
아이스아메리카노 | 아아
라떼 | 카페라떼 | 라테 | 카페라테
카페 | 커피숍 | 커피전문점 | 다방
음료 | 음료수 | 드링크
생수 | 물 | 식수
탄산음료 | 소다 | 청량음료
주스 | 쥬스 | 과일주스
디카페인 | 디카페
녹차 | 그린티
홍차 | 블랙티
건배 | 짠 | 치얼스

# home and housing
집 | 자택 | 댁 | 보금자리
거주지 | 주거지 | 거처
원룸 | 스튜디오
빌라 | 다세대 | 연립주택
방 | 룸
침실 | 베드룸
거실 | 리빙룸 | 응접실
부엌 | 주방 | 키친
화장실 | 욕실 | 변소 | 뒷간
현관 | 현관문
베란다 | 발코니
이사 | 이주
이사업체 | 이삿짐센터 | 포장이사
월세 | 렌트 | 임대료 | 집세 | 방세
전세 | 전셋집 | 전세집
보증금 | 디파짓
계약 | 계약서 | 컨트랙트
부동산 | 공인중개사 | 중개소 | 복덕방
청소 | 대청소 | 클리닝
빨래 | 세탁
설거지 | 설겆이
쓰레기 | 폐기물
분리수거 | 재활용
수리 | 수선 | 고치다 | 보수 | 리페어
인테리어 | 실내장식
리모델링 | 개조 | 리노베이션
가구 | 퍼니처
소파 | 쇼파 | 카우치
침대 | 베드
이불 | 이부자리 | 침구
에어컨 | 에어콘 | 냉방기
히터 | 난로 | 온풍기
전기세 | 전기요금 | 전기료
수도세 | 수도요금 | 수도료
가스비 | 가스요금 | 가스료
동네 | 마을
주소 | 주소지
엘리베이터 | 승강기
주차장 | 주차공간 | 파킹
택배 | 소포
휴지 | 화장지 | 티슈
조명 | 전등 | 라이트
전자레인지 | 레인지 | 렌지 | 마이크로웨이브
청소기 | 진공청소기
창문 | 창 | 윈도우
마당 | 정원 | 뜰 | 가든
차고 | 개러지

# money and payment
돈 | 금전 | 머니
현금 | 캐시 | 현찰
신용카드 | 크레디트카드 | 크레딧카드
체크카드 | 직불카드 | 데빗카드
계좌 | 통장 | 은행계좌
이체 | 송금 | 계좌이체
결제 | 지불 | 지급 | 계산 | 페이
가격 | 값
비용 | 경비 | 코스트
지출 | 소비 | 씀씀이
비싸다 | 값비싸다 | 고가
싸다 | 저렴하다 | 값싸다 | 저가
할인 | 세일 | 디씨 | 디스카운트 | 에누리
예산 | 버짓
월급 | 급여 | 급료 | 봉급 | 샐러리
보너스 | 상여금 | 성과급 | 인센티브
용돈 | 포켓머니
빚 | 부채 | 채무
대출 | 융자 | 론
세금 | 조세 | 택스
저축 | 저금 | 세이빙
재테크 | 자산관리
주식 | 증권
계산서 | 청구서 | 인보이스 | 고지서
환불 | 환급 | 리펀드
요금 | 이용료 | 사용료
수수료 | 커미션
벌금 | 과태료 | 범칙금 | 딱지
은행 | 뱅크
부자 | 부호 | 갑부 | 재력가
가난하다 | 궁핍하다 | 빈곤하다
절약 | 절감 | 아끼다
낭비 | 허비
비상금 | 쌈짓돈
구독 | 정기구독 | 정기결제
할부 | 분할납부 | 분납
카드값 | 카드대금
잔액 | 잔고 | 밸런스
포인트 | 적립금 | 마일리지
상품권 | 기프트카드 | 기프티콘
쿠폰 | 할인권 | 할인쿠폰

# work and office
회사 | 직장 | 일터 | 컴퍼니
업무 | 일 | 작업
직업 | 일자리 | 잡 | 밥벌이
퇴근 | 칼퇴 | 칼퇴근
야근 | 잔업 | 초과근무 | 오버타임 | 연장근무
휴가 | 연차 | 월차 | 휴무 | 바캉스
병가 | 병결
재택근무 | 재택 | 원격근무 | 홈오피스
회의 | 미팅 | 회합
모임 | 친목회 | 소모임
프로젝트 | 과제 | 플젝
마감 | 데드라인 | 마감일 | 기한 | 마감기한
보고서 | 리포트 | 레포트
발표 | 프레젠테이션 | 프리젠테이션 | 피티
문서 | 서류 | 도큐먼트 | 문건
자료 | 데이터 | 데이타
승진 | 진급 | 영전
이직 | 전직
퇴사 | 사직 | 사임 | 사표
퇴직 | 은퇴 | 정년퇴직
취직 | 취업 | 입사
해고 | 잘리다 | 짤리다 | 파면 | 해임 | 정리해고
면접 | 인터뷰
이력서 | 레쥬메 | 레주메
자기소개서 | 자소서 | 커버레터
정규직 | 정직원
계약직 | 비정규직
출장 | 비즈니스트립
부서 | 부문 | 팀 | 파트
사무실 | 오피스 | 사무소
협업 | 협력 | 공동작업 | 콜라보 | 콜라보레이션
피드백 | 의견
승인 | 결재 | 컨펌 | 재가
허가 | 허락 | 허용 | 퍼미션
검토 | 검수
목표 | 목적 | 골
성과 | 실적 | 업적
평가 | 고과 | 인사고과 | 평정
업무량 | 일거리 | 일감 | 워크로드
번아웃 | 탈진 | 소진
엑셀 | 스프레드시트
계획 | 플랜 | 기획 | 구상
아이디어 | 발상 | 착상
이슈 | 문제 | 사안
해결 | 해소 | 처리
업데이트 | 갱신 | 업뎃
회의록 | 의사록 | 미팅노트
근무 | 일하다
프리랜서 | 자유계약자 | 프리

# school and study
학교 | 스쿨
대학 | 대학교
초등학교 | 국민학교 | 초교
고등학교 | 고교
학원 | 아카데미
과외 | 개인교습 | 과외수업 | 튜터링
공부 | 학습 | 스터디 | 면학
수업 | 강의 | 레슨 | 강좌 | 클래스
숙제 | 과제물 | 홈워크
시험 | 테스트 | 고사
성적 | 학점 | 학업성적
점수 | 스코어
학기 | 세메스터
교실 | 강의실 | 클래스룸
대학생 | 대딩
고등학생 | 고딩
중학생 | 중딩
초등학생 | 초딩
자격증 | 라이선스 | 라이센스
운전면허 | 운전면허증 | 면허증 | 면허
교재 | 교과서 | 텍스트북
책 | 도서 | 서적 | 북
공책 | 노트 | 필기장
도서관 | 라이브러리
논문 | 페이퍼 | 학위논문
유학 | 해외유학
장학금 | 스칼라십
등록금 | 학비 | 수업료 | 교육비
연습 | 훈련 | 트레이닝
배우다 | 익히다 | 습득
가르치다 | 강습
외우다 | 암기 | 암송
인강 | 인터넷강의 | 온라인강의
어린이집 | 유아원 | 데이케어
졸업식 | 학위수여식

# travel and transport
여행 | 트립 | 여정
관광 | 투어 | 구경
해외여행 | 외국여행
해외 | 외국 | 국외
비행기 | 항공기 | 여객기
항공편 | 비행편 | 플라이트
항공권 | 비행기표 | 비행기티켓 | 에어티켓 | 이티켓
표 | 티켓 | 승차권 | 입장권
숙소 | 숙박 | 숙박시설
게스트하우스 | 민박 | 게하
캠핑 | 야영 | 캠프
짐 | 수하물 | 짐가방 | 러기지
캐리어 | 여행가방 | 트렁크 | 슈트케이스
여권 | 패스포트
비자 | 사증
환승 | 경유 | 트랜짓 | 갈아타다
지연 | 연착 | 딜레이 | 지체
기차 | 열차
고속열차 | 고속철 | 고속철도
지하철 | 전철 | 메트로
택시 | 콜택시
자동차 | 승용차 | 자가용 | 마이카
렌터카 | 렌트카 | 렌탈카
휘발유 | 가솔린 | 기름
교통체증 | 차막힘 | 정체 | 교통정체
도로 | 길 | 로드
지도 | 맵 | 약도
내비게이션 | 내비 | 네비 | 네비게이션 | 길안내
리조트 | 휴양지
해변 | 바닷가 | 비치 | 해안
등산 | 하이킹 | 산행 | 트레킹
기념품 | 수베니어
가이드 | 안내원 | 인솔자
체크인 | 입실
체크아웃 | 퇴실
좌석 | 자리 | 시트
비즈니스석 | 비즈니스클래스
일반석 | 이코노미 | 이코노미석
면세점 | 면세 | 듀티프리
시차증 | 젯랙
페리 | 여객선 | 배편
자전거 | 바이크 | 사이클
오토바이 | 모터사이클
출퇴근 | 통근

# time and events
생일 | 생신 | 탄신 | 귀빠진날 | 버스데이
생일파티 | 생파 | 생일잔치
기념일 | 주년
약속 | 선약
예약 | 예매 | 부킹
일정 | 스케줄 | 스케쥴 | 계획표 | 일과
행사 | 이벤트
축제 | 페스티벌 | 페스티발 | 페스타
파티 | 잔치 | 연회
돌잔치 | 첫돌 | 돌
환갑 | 회갑 | 환갑잔치
장례 | 장례식 | 영결식
제사 | 차례
설 | 설날 | 구정 | 음력설
추석 | 한가위 | 중추절
크리스마스 | 성탄절 | 성탄 | 엑스마스
새해 | 신년 | 뉴이어
연말 | 세밑 | 연말연시
송년회 | 망년회 | 연말모임
환송회 | 송별회 | 송별파티
휴일 | 공휴일 | 쉬는날 | 빨간날
주말 | 위켄드
평일 | 주중
오늘 | 금일
어제 | 어저께
모레 | 내일모레
그저께 | 그제 | 엊그제
지금 | 현재 | 이제
나중 | 추후 | 후일 | 이따가
요즘 | 최근 | 근래 | 요새 | 요즈음
항상 | 늘 | 언제나 | 맨날
매일 | 날마다 | 매일매일
아침 | 모닝
밤 | 야간 | 나이트
새벽 | 꼭두새벽
낮 | 대낮 | 한낮
일주일 | 한주
작년 | 지난해 | 전년
올해 | 금년
내년 | 다음해 | 명년 | 이듬해
재작년 | 지지난해
다음주 | 차주 | 담주
지난주 | 전주 | 저번주
이번주 | 금주
다음달 | 내달 | 담달
지난달 | 전월 | 저번달
잠깐 | 잠시
지각 | 늦다
알람 | 자명종
알림 | 노티 | 노티피케이션 | 리마인더 | 푸시알림
달력 | 캘린더
시계 | 손목시계
축하 | 경축
선물 | 기프트
사진 | 포토
셀카 | 셀피

# shopping
쇼핑 | 샤핑
사다 | 구매 | 구입 | 장만
팔다 | 판매 | 매각
가게 | 상점 | 매장 | 점포 | 숍 | 샵 | 스토어
마트 | 슈퍼 | 슈퍼마켓 | 대형마트 | 식료품점
시장 | 재래시장 | 전통시장 | 장터
쇼핑몰 | 몰 | 쇼핑센터
온라인쇼핑 | 인터넷쇼핑
배송 | 운송 | 쉬핑
반품 | 반송 | 리턴
상품 | 제품 | 물품 | 아이템 | 품목
브랜드 | 상표 | 메이커
사이즈 | 크기 | 치수
색깔 | 색 | 색상 | 컬러 | 칼라
중고 | 중고품 | 세컨핸드
새것 | 신품 | 새제품 | 새상품
장바구니 | 카트 | 쇼핑카트
계산대 | 카운터
품절 | 매진 | 솔드아웃 | 완판
정가 | 소비자가 | 소비자가격
무료 | 공짜 | 무상 | 거저
배송비 | 택배비 | 배송료 | 운송료 | 배달비
후기 | 리뷰 | 상품평 | 사용후기
영업시간 | 운영시간

# hobbies and sports
취미 | 취미생활 | 하비
운동 | 체력단련 | 워크아웃 | 엑서사이즈
헬스장 | 헬스 | 헬스클럽 | 피트니스 | 피트니스센터 | 체육관
달리기 | 러닝 | 조깅 | 뜀박질
산책 | 산보 | 걷기 | 워킹
수영 | 헤엄 | 스위밍
수영장 | 풀장
축구 | 풋볼 | 사커
야구 | 베이스볼
농구 | 바스켓볼
탁구 | 핑퐁
게임 | 겜 | 게이밍
콘솔 | 게임기
영화 | 무비
영화관 | 극장 | 시네마 | 멀티플렉스
드라마 | 연속극
예능 | 버라이어티 | 예능프로
티비 | 텔레비전 | 티브이 | 테레비
음악 | 뮤직
노래 | 곡 | 송 | 가요
노래방 | 가라오케 | 코노 | 코인노래방
공연 | 콘서트 | 라이브 | 쇼 | 연주회
전시회 | 전시 | 전람회
박람회 | 엑스포 | 페어
미술관 | 갤러리 | 화랑
박물관 | 뮤지엄
독서 | 책읽기
그림 | 드로잉 | 스케치
베이킹 | 제빵 | 홈베이킹
뜨개질 | 니팅 | 손뜨개
춤 | 댄스 | 무용
경기 | 시합 | 매치
선수 | 운동선수 | 플레이어
팬 | 애호가 | 덕후 | 마니아 | 매니아
동호회 | 클럽 | 서클 | 동아리
스트레칭 | 몸풀기 | 준비운동
근력운동 | 웨이트 | 웨이트트레이닝 | 근육운동
유산소 | 유산소운동 | 카디오
명상 | 메디테이션 | 마음챙김
영상 | 동영상 | 비디오 | 클립
만화 | 코믹스 | 카툰 | 만화책
팟캐스트 | 팟캐
넷플릭스 | 넷플
유튜브 | 유튭 | 유투브
인스타그램 | 인스타
페이스북 | 페북
카카오톡 | 카톡

# pets and animals
반려동물 | 애완동물 | 펫 | 애완
개 | 강아지 | 멍멍이 | 댕댕이 | 반려견 | 애완견
고양이 | 냥이 | 야옹이 | 반려묘 | 애완묘
동물병원 | 동물의원
사료 | 먹이 | 펫푸드
목줄 | 리드줄 | 개줄
입양 | 분양
중성화 | 중성화수술 | 거세
똥 | 대변 | 응가
오줌 | 소변 | 쉬
미용 | 그루밍 | 애견미용
펫호텔 | 애견호텔 | 호텔링
동물 | 짐승
햄스터 | 햄찌
거북이 | 거북
토끼 | 토깽이

# technology and accounts
휴대폰 | 핸드폰 | 휴대전화 | 폰 | 스마트폰 | 핸펀 | 모바일
노트북 | 랩탑 | 랩톱 | 노트북컴퓨터
컴퓨터 | 피씨 | 피시 | 컴
데스크톱 | 데스크탑 | 본체
태블릿 | 타블렛 | 패드
이어폰 | 이어버드 | 헤드폰 | 헤드셋
충전기 | 차저
배터리 | 밧데리 | 밧테리 | 건전지 | 전지
인터넷 | 웹 | 넷
와이파이 | 무선인터넷 | 무선랜 | 와파
앱 | 어플 | 어플리케이션 | 애플리케이션 | 응용프로그램
프로그램 | 소프트웨어
계정 | 아이디 | 어카운트
비밀번호 | 비번 | 패스워드 | 암호
로그인 | 로그온 | 사인인
로그아웃 | 로그오프 | 사인아웃
회원가입 | 가입 | 등록 | 사인업
설치 | 인스톨 | 깔다
삭제 | 제거 | 지우다 | 딜리트
다운로드 | 다운 | 내려받다 | 내려받기
저장 | 세이브
파일 | 화일
폴더 | 디렉토리 | 디렉터리
화면 | 스크린 | 디스플레이
키보드 | 자판
프린터 | 인쇄기 | 프린트기
인쇄 | 프린트 | 출력
카메라 | 사진기 | 디카
오류 | 에러 | 버그 | 결함
고장 | 먹통 | 망가지다
바이러스 | 악성코드 | 멀웨어
보안 | 시큐리티
인증번호 | 인증코드 | 보안코드
링크 | 웹주소 | 유알엘
웹사이트 | 사이트 | 홈페이지 | 웹페이지
검색 | 서치 | 구글링
스마트워치 | 워치
인공지능 | 에이아이
용량 | 저장공간 | 스토리지
재부팅 | 리부팅 | 재시작
스크린샷 | 캡처 | 캡쳐 | 화면캡처 | 스샷
이모티콘 | 이모지
게시물 | 게시글 | 포스트 | 포스팅
댓글 | 답글 | 리플 | 코멘트
공유기 | 라우터

# communication
메시지 | 메세지 | 문자 | 문자메시지 | 쪽지 | 톡 | 디엠
전화 | 통화 | 콜 | 전화통화
연락 | 컨택
연락처 | 전화번호 | 폰번호 | 핸드폰번호
이메일 | 메일 | 전자우편 | 이멜 | 전자메일
편지 | 서신 | 서한 | 레터
답장 | 회신 | 답신
답변 | 응답 | 대답
우편 | 우편물
영상통화 | 화상통화 | 페이스타임 | 비디오콜
화상회의 | 온라인회의 | 비대면회의 | 줌
단톡방 | 단톡 | 단체방 | 단체채팅방 | 단체톡방 | 그룹채팅
채팅 | 챗
대화 | 이야기 | 얘기 | 토크
말 | 말씀
묻다 | 질문 | 여쭈다 | 여쭙다
공지 | 공지사항 | 공고
통보 | 통지 | 알리다
부탁 | 요청 | 의뢰 | 리퀘스트
초대 | 초청 | 인비테이션
초대장 | 초청장
감사 | 고마움
안부 | 문안 | 인사

# places in a city
미용실 | 헤어숍 | 헤어샵 | 미장원 | 헤어살롱 | 살롱
이발소 | 바버샵 | 바버숍 | 이용원
네일샵 | 네일숍 | 네일살롱
주민센터 | 동사무소 | 행정복지센터 | 주민자치센터
경찰서 | 파출소 | 지구대
세탁소 | 클리닝샵
빨래방 | 코인세탁소 | 셀프빨래방
놀이공원 | 테마파크 | 유원지 | 놀이동산
절 | 사찰 | 절간
목욕탕 | 대중탕 | 사우나
정류장 | 정거장 | 버스정류장 | 정류소
지하철역 | 전철역
기차역 | 철도역
터미널 | 버스터미널 | 고속터미널
시내 | 도심 | 다운타운 | 번화가
도시 | 시티 | 도회지
시골 | 농촌 | 촌 | 전원

# feelings and preferences
좋아하다 | 선호 | 애호
싫어하다 | 싫다 | 혐오 | 미워하다 | 증오
사랑 | 애정 | 러브
최애 | 원픽
기쁘다 | 즐겁다 | 신나다 | 흥겹다
행복 | 기쁨 | 희열
슬프다 | 서럽다 | 서글프다
화나다 | 짜증나다 | 열받다 | 성나다 | 빡치다
짜증 | 신경질
걱정 | 근심 | 염려 | 우려
불안 | 초조 | 불안감
무섭다 | 두렵다 | 겁나다
외롭다 | 쓸쓸하다 | 고독하다
심심하다 | 지루하다 | 따분하다 | 노잼
재미있다 | 재밌다 | 흥미롭다 | 꿀잼
부럽다 | 샘나다
놀라다 | 깜놀
실망 | 낙담 | 실망감
감동 | 감명
만족 | 흡족 | 만족감
고맙다 | 감사하다
미안하다 | 죄송하다 | 송구하다
귀찮다 | 성가시다 | 번거롭다
힘들다 | 고되다 | 버겁다 | 벅차다
어렵다 | 까다롭다 | 난해하다
쉽다 | 간단하다 | 수월하다 | 용이하다
예쁘다 | 이쁘다 | 아름답다 | 곱다
귀엽다 | 깜찍하다 | 앙증맞다
멋있다 | 멋지다 | 근사하다
바쁘다 | 분주하다 | 정신없다
편하다 | 편안하다
원하다 | 바라다
관심 | 흥미
기분 | 무드

# common verbs of daily life
취소 | 캔슬 | 철회
옮기다 | 이동
만나다 | 뵙다 | 뵈다
시작 | 개시 | 착수 | 스타트
끝 | 종료 | 끝나다 | 마치다
완료 | 마무리 | 완성 | 끝내다
바꾸다 | 변경 | 교체 | 체인지
수정 | 정정 | 교정
미루다 | 연기 | 순연 | 늦추다
연장 | 늘리다
보내다 | 발송 | 전송 | 부치다
주다 | 드리다
죽다 | 돌아가시다 | 사망 | 별세 | 타계 | 작고
태어나다 | 출생 | 탄생
살다 | 거주
쉬다 | 휴식 | 쉼
돕다 | 도와주다 | 도움 | 거들다
잃어버리다 | 잃다 | 분실
잊다 | 잊어버리다 | 까먹다
빌리다 | 대여 | 렌탈
돌려주다 | 반납 | 반환
고르다 | 선택 | 택하다
결정 | 정하다 | 확정 | 결심
확인 | 체크 | 점검
준비 | 채비 | 대비
기다리다 | 대기
도착 | 도달
출발 | 떠나다
열다 | 오픈 | 개장 | 개점
닫다 | 폐점 | 폐장 | 클로즈
만들다 | 제작 | 생성
이기다 | 승리
지다 | 패배
싸우다 | 다투다 | 싸움 | 다툼 | 말다툼
헤어지다 | 이별 | 결별
사귀다 | 교제 | 연애
신청 | 지원 | 응모 | 접수
목욕 | 샤워 | 입욕
입다 | 착용 | 걸치다
벗다 | 탈의

# clothing and beauty
옷 | 의류 | 의복 | 의상 | 옷가지
정장 | 양복 | 수트 | 슈트
셔츠 | 와이셔츠 | 남방
티셔츠 | 티
바지 | 팬츠 | 슬랙스
청바지 | 진 | 데님 | 진바지
치마 | 스커트
원피스 | 드레스
외투 | 코트 | 아우터 | 겉옷
패딩 | 다운재킷 | 파카
재킷 | 자켓 | 쟈켓 | 점퍼 | 잠바
스웨터 | 니트
운동화 | 스니커즈 | 스니커
신발 | 신 | 슈즈
슬리퍼 | 실내화
모자 | 캡 | 햇
가방 | 백
백팩 | 배낭 | 책가방
지갑 | 월렛
잠옷 | 파자마
속옷 | 내의 | 언더웨어
양말 | 삭스
목도리 | 머플러
장갑 | 글러브
액세서리 | 악세서리 | 악세사리 | 장신구
반지 | 링
화장 | 메이크업 | 메이컵
화장품 | 코스메틱
향수 | 퍼퓸
머리카락 | 머리털 | 모발 | 헤어
파마 | 펌 | 퍼머
염색 | 헤어컬러
이발 | 커트 | 컷 | 헤어컷

# weather and seasons
날씨 | 기상
비 | 강우 | 강수
장마 | 장마철 | 우기
폭설 | 대설
덥다 | 무덥다
춥다 | 쌀쌀하다 | 싸늘하다
더위 | 폭염 | 무더위
추위 | 한파 | 혹한
습하다 | 눅눅하다 | 꿉꿉하다
맑다 | 화창하다 | 쾌청하다
흐리다 | 우중충하다
태풍 | 타이푼 | 허리케인
일기예보 | 예보 | 기상예보 | 날씨예보
봄 | 봄철 | 봄날
여름 | 여름철 | 하절기
가을 | 가을철
겨울 | 겨울철 | 동절기
계절 | 시즌 | 철
기온 | 온도

# family (english)
father | dad | daddy | papa
mother | mom | mum | mommy | mummy | mama
grandfather | grandpa | granddad | grandad | gramps
grandmother | grandma | granny | gran | nana
grandchild | grandkid
child | kid | youngster | offspring
baby | infant | newborn
husband | hubby
wife | missus | missis
spouse | partner
brother | bro
sister | sis
aunt | auntie | aunty
relative | kin | kinfolk | kinsman
family | folks
wedding | nuptials
marriage | matrimony | wedlock
pregnant | expecting
fiance | fiancee | betrothed
boyfriend | bf
girlfriend | gf
sweetheart | darling | sweetie

# people and roles (english)
doctor | physician | gp | md
teacher | instructor | tutor | educator
professor | prof | lecturer
student | pupil
boss | manager | supervisor | superior
colleague | coworker | workmate | associate | peer
employee | staff | worker | staffer
landlord | landlady | lessor
tenant | renter | lessee
neighbour | neighbor
friend | pal | buddy | mate | chum
bestie | bff
customer | client | patron
guest | visitor
lawyer | attorney | solicitor | counsel | barrister
accountant | bookkeeper | cpa
driver | chauffeur
courier | deliveryman
police | cop | policeman | policewoman
firefighter | fireman
hairdresser | hairstylist | stylist | barber
chef | cook
clerk | salesclerk | salesperson | salesman | saleswoman
therapist | counselor | counsellor
pharmacist | chemist | druggist
vet | veterinarian
secretary | assistant
babysitter | nanny | sitter | childminder
housekeeper | maid | cleaner | housemaid
man | guy | gentleman | fellow | dude | bloke
woman | lady | gal
teenager | teen | adolescent
roommate | flatmate | housemate | roomie
intern | trainee | apprentice
newcomer | newbie | rookie | novice | beginner
mentor | adviser | advisor
coach | trainer
freelancer | freelance | contractor

# body and health (english)
sick | ill | unwell | poorly
illness | disease | sickness | ailment
medicine | medication | meds | drug | remedy
pill | capsule | tablet
prescription | script | rx
pharmacy | drugstore | dispensary
hospital | infirmary
surgery | operation
checkup | physical | screening
flu | influenza
stomachache | bellyache | tummyache
belly | stomach | tummy | abdomen
injury | wound
pain | ache | soreness
tired | exhausted | weary | fatigued
fatigue | exhaustion | tiredness
sleep | slumber | snooze
insomnia | sleeplessness
vomit | puke | barf
vaccine | vaccination | jab | shot | inoculation | immunization | immunisation
glasses | spectacles | specs | eyeglasses
stress | pressure | strain
anxiety | anxiousness | nervousness
menstruation | menses
physio | physiotherapy | physiotherapist
health | wellness | wellbeing
diet | dieting
weight | bodyweight

# food and eating (english)
meal | repast
breakfast | brekkie | brekky
lunch | luncheon
dinner | supper
snack | munchies | nibbles
restaurant | eatery | diner | bistro
cafe | café | coffeehouse | coffeeshop
bar | pub | tavern | saloon
bakery | bakeshop | patisserie
takeaway | takeout | carryout
food | grub | chow | eats | fare
eat | dine
hungry | starving | famished | peckish
delicious | tasty | yummy | scrumptious | flavorful | flavourful
disgusting | gross | nasty | revolting | yucky
fries | chips | frites
candy | sweets | confectionery
dessert | afters | pudding
vegetable | veggie | veg
eggplant | aubergine
zucchini | courgette
cilantro | coriander
shrimp | prawn
cookie | biscuit
groceries | foodstuff | provisions
supermarket | grocer | hypermarket | superstore
bill | invoice | check | tab
tip | gratuity
spicy | peppery
sandwich | sarnie | butty
buffet | smorgasbord
feast | banquet
barbecue | bbq | barbeque | cookout

# drinks and coffee (english)
drink | beverage
soda | pop | fizzy
beer | ale | lager | brew
alcohol | booze | liquor | spirits
coffee | java
decaf | decaffeinated
espresso | expresso

# home and housing (english)
home | house | residence | dwelling | abode
apartment | flat | condo | condominium | unit
studio | bedsit
lounge | den | livingroom
bathroom | restroom | toilet | loo | washroom | lavatory | wc
garden | yard | backyard
balcony | terrace | veranda | verandah
movers | removalists | removers
rent | rental | lease
deposit | bond
contract | agreement
realtor | broker
housework | chores | housekeeping
laundry | washing
trash | garbage | rubbish | waste | litter
repair | fix | mend
renovation | remodel | remodeling | refurbishment | refurb
furniture | furnishings
sofa | couch | settee
blanket | duvet | comforter | quilt | doona
fridge | refrigerator | icebox
stove | cooker | hob
vacuum | hoover
aircon | ac | airconditioning
electricity | power
neighbourhood | neighborhood | district | locality
elevator | lift
garage | carport
mailbox | letterbox | postbox
parcel | package
faucet | tap
closet | wardrobe | armoire
lightbulb | bulb
curtain | drape

# money and payment (english)
money | cash | dough | dosh | moolah
payment | remittance
transfer | wire
price | cost
fee | charge
expensive | pricey | costly | overpriced
cheap | inexpensive | affordable | cheapo
discount | markdown | reduction | sale
coupon | voucher
salary | wage | pay | paycheck | paycheque | earnings | income
bonus | incentive
debt | arrears
tax | levy
stock | share | equity
refund | reimbursement | repayment | rebate
fine | penalty
rich | wealthy | affluent | loaded | welloff
poor | broke | penniless | impoverished
expenses | expenditure | outgoings | spending
installment | instalment
wallet | billfold
atm | cashpoint
allowance | pocketmoney
lend | loan
savings | nestegg

# work and office (english)
job | occupation | profession | employment
work | labour | labor
office | workplace
company | firm | corporation | business | enterprise
meeting | huddle | standup
conference | convention | summit | symposium
project | initiative | undertaking
deadline | cutoff | duedate
task | todo
report | writeup
presentation | slides | deck | slideshow | powerpoint | ppt
document | doc
spreadsheet | excel | worksheet
promotion | advancement
resign | quit | resignation
sack | dismiss | fire | layoff
hire | recruit | employ
resume | cv | résumé
team | squad | crew
department | dept | division
vacation | holiday | pto | timeoff | vacay | hols
wfh | telework | telecommute | remotework
feedback | input | critique
approval | signoff | sanction | authorization | authorisation
review | evaluation | appraisal | assessment
goal | objective | target | aim
result | outcome
issue | problem | trouble
solve | resolve
plan | scheme
idea | notion | concept
collaboration | cooperation | teamwork
retire | retirement | retiree

# school and study (english)
university | uni | college | varsity
class | lesson | lecture | tutorial
course | module
homework | assignment | coursework
exam | examination | test | quiz
grade | mark | score
degree | diploma
certificate | certification | cert
learn | study
teach | instruct | educate
memorize | memorise
practice | practise | training | drill
textbook | coursebook | schoolbook
thesis | dissertation
scholarship | bursary | fellowship
tuition | schoolfees
semester | term
graduate | grad | alumnus | alum
classmate | schoolmate
freshman | fresher
kindergarten | preschool | prek
daycare | nursery | creche | childcare
license | licence | permit
graduation | commencement | convocation

# travel and transport (english)
trip | journey | voyage | excursion | outing | travel
tour | sightseeing
airplane | plane | aeroplane | aircraft | jet
airline | carrier
accommodation | accomodation | lodging
hotel | inn | lodge
hostel | guesthouse | bnb
luggage | baggage
suitcase | valise
layover | stopover | connection
delay | holdup | lateness
train | rail
subway | metro | underground | tube
taxi | cab | minicab
car | auto | automobile | vehicle
gas | petrol | fuel | gasoline
traffic | congestion | gridlock
road | street
navigation | satnav | gps
beach | seaside | shore | coast
souvenir | memento | keepsake
bicycle | bike | cycle
motorbike | motorcycle
ferry | boat | ship | vessel
abroad | overseas | foreign
campsite | campground
hike | trek | hillwalking
jetlag | jetlagged
depart | departure | leave
arrive | arrival

# time and events (english)
birthday | bday
anniversary | anniv
appointment | appt
reservation | booking | book | reserve
schedule | timetable | rota | roster
calendar | planner | diary
event | occasion | happening
party | bash | shindig | celebration | fiesta
festival | fest | carnival | gala
funeral | burial
christmas | xmas | noel | yule | christmastime
weekend | wknd
weekday | workday
tomorrow | tmrw | tmr
yesterday | yday
tonight | tonite
later | afterwards | afterward | subsequently
soon | shortly | presently
recently | lately
daily | everyday
morning | forenoon | morn
night | nighttime | nite
noon | midday | noontime
dawn | daybreak | sunrise | sunup
dusk | sunset | sundown | twilight
week | wk
year | yr
reminder | notification | alert
watch | wristwatch
late | tardy | belated
postpone | defer | reschedule | putoff
gift | present
photo | picture | pic | photograph | snapshot | snap
congratulations | congrats | kudos
farewell | sendoff
reunion | homecoming

# shopping (english)
shop | store | boutique | outlet
mall | plaza | galleria
buy | purchase | acquire | procure
sell | vend
delivery | shipping | dispatch | shipment
product | item | goods | merchandise | merch | ware
brand | label | marque
color | colour | hue | shade | tint
secondhand | preowned | preloved
cart | trolley | basket
checkout | till
free | complimentary | gratis
warranty | guarantee
bargain | steal
handbag | purse | pocketbook

# hobbies and sports (english)
hobby | pastime
exercise | workout
gym | gymnasium | fitness
run | jog
walk | stroll | amble | saunter
football | soccer | footy
pingpong | tabletennis
gaming | videogame
match | fixture
movie | film | flick
cinema | theater | theatre | multiplex
show | programme | series
tv | television | telly
song | track | tune
concert | gig | recital
exhibition | exhibit | showcase
fair | expo | tradeshow
karaoke | noraebang
drawing | sketch
player | athlete | sportsman | sportswoman
fan | enthusiast | buff | aficionado | fanatic | devotee
fishing | angling
meditation | mindfulness
video | clip | footage
comic | manga | cartoon
instagram | insta | ig
facebook | fb
youtube | yt
podcast | pod
weightlifting | lifting | weights
cardio | aerobics
competition | contest | tournament | championship
win | victory | triumph

# pets and animals (english)
dog | puppy | pup | doggy | doggo | pooch | hound | canine
cat | kitty | kitten | pussycat | feline
leash | lead
kibble | petfood
neuter | spay | castrate
poop | poo | faeces | feces | droppings
pee | urine | wee
animal | creature | beast
rabbit | bunny
turtle | tortoise | terrapin
aquarium | fishtank

# technology and accounts (english)
phone | mobile | cellphone | cell | smartphone | handset
laptop | notebook
computer | pc
headphone | earphone | earbud | headset | airpod
adapter | adaptor
internet | web | net
wifi | wireless | wlan
app | application
software | program
password | passcode | passphrase | pw | pwd
login | signin | logon
logout | signout | logoff
signup | register | registration | enrol | enroll
delete | remove | erase
folder | directory
screen | display | monitor
camera | cam
bug | glitch | error | fault
broken | busted | kaput
malware | virus
link | url | hyperlink
website | site | webpage | homepage
search | google | lookup
screenshot | screencap | screengrab
emoji | emoticon | smiley
tech | technology
gadget | device | gizmo
router | modem
account | profile

# communication (english)
message | msg | text | sms | dm | pm
call | ring | buzz
email | e-mail | mail
reply | response | answer | respond
videocall | facetime | videochat
zoom | videoconference
conversation | chat | talk | discussion
ask | inquire | enquire | query
inform | notify | tell | apprise
announcement | notice | bulletin
favor | favour
invite | invitation
thanks | thank | thx | ty
hello | hi | hey | hiya | howdy
bye | goodbye | cya
sorry | apology | apologize | apologise
letter | missive

# places in a city (english)
salon | parlour | parlor
laundromat | launderette | laundrette
church | chapel
temple | shrine
sauna | bathhouse | spa
carpark | parkinglot | parking
station | terminal | depot
downtown | citycentre | citycenter | cbd
city | town
hometown | birthplace
themepark | funfair | fairground
clinic | polyclinic

# feelings and preferences (english)
enjoy | relish | savour | savor
love | adore | cherish
hate | detest | loathe | despise | dislike
prefer | preference
favourite | favorite | fave | fav
happy | glad | pleased | cheerful | joyful | delighted
sad | unhappy | sorrowful | gloomy | miserable
angry | mad | furious | livid
annoyed | irritated | irked
worried | anxious | nervous | concerned | uneasy
scared | afraid | frightened | fearful | terrified
lonely | lonesome
bored | uninterested
boring | dull | tedious | monotonous
fun | enjoyable | entertaining
interesting | fascinating | intriguing
jealous | envious
surprised | astonished | amazed | shocked | stunned
disappointed | dismayed
satisfied | content | contented | fulfilled
grateful | thankful | appreciative
busy | swamped | slammed
comfortable | comfy | cosy | cozy
want | wish | desire
difficult | hard | tough | challenging | tricky
easy | simple | effortless | straightforward
beautiful | pretty | lovely | gorgeous | stunning
cute | adorable
awesome | amazing | fantastic | wonderful | terrific
awful | terrible | horrible | dreadful
excited | thrilled | pumped | psyched
embarrassed | mortified
confused | puzzled | baffled | perplexed
calm | relaxed | peaceful | serene
rude | impolite | disrespectful
annoying | irritating | bothersome | pesky

# common verbs of daily life (english)
cancel | cancellation
relocate | relocation | move
meetup | hangout | catchup | gettogether | gathering
start | begin | commence | kickoff
end | finish | conclude | complete
change | alter | modify | amend | adjust
replace | swap | substitute | exchange
extend | prolong | lengthen
death | passing | demise | decease
live | reside | dwell
rest | relax | unwind | chill
help | assist | aid | assistance
lose | misplace | mislay
remember | recall | recollect
choose | pick | select | opt
decide | determine | settle
check | verify | inspect
confirm | confirmation | reconfirm
prepare | prep
wait | await
close | shut
fight | argue | quarrel | argument | dispute | squabble | spat
breakup | split
submit | submission
clean | tidy | cleaning | tidyup
bath | bathe
wear | don

# clothing and beauty (english)
clothes | clothing | garment | apparel | attire | outfit
tshirt | tee
pants | trousers | slacks
jeans | denim
dress | gown | frock
coat | overcoat | topcoat
parka | anorak | puffer
sweater | jumper | pullover | jersey
hoodie | hoody | sweatshirt
sneakers | kicks
shoes | footwear
hat | cap
backpack | rucksack | knapsack | bookbag
pyjamas | pajamas | pjs | jammies | nightwear | sleepwear
underwear | undies | underclothes
scarf | muffler
glove | mitten
jewelry | jewellery | jewels | bling
makeup | cosmetics
perfume | fragrance | cologne | scent
haircut | trim
umbrella | brolly
tuxedo | tux
swimsuit | swimwear

# weather and seasons (english)
rain | rainfall | precipitation | shower
hot | boiling | sweltering | scorching
cold | chilly | freezing | nippy | frosty
heatwave | scorcher
humid | muggy | steamy
sunny | clear | bright
cloudy | overcast
windy | breezy | gusty
storm | tempest
typhoon | hurricane | cyclone
forecast | outlook
spring | springtime
summer | summertime
autumn | fall
winter | wintertime
fog | mist | haze
snow | snowfall
"""
