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
아들 | 아드님
딸 | 따님
자녀 | 자식
아이 | 애 | 꼬마 | 어린이 | 아동
아기 | 아가 | 애기 | 갓난아기 | 신생아 | 베이비
남편 | 신랑 | 바깥양반
아내 | 부인 | 와이프 | 마누라 | 집사람 | 안사람
형 | 형님 | 오빠
누나 | 누님 | 언니
장인 | 장인어른 | 빙부
장모 | 장모님 | 빙모
가족 | 식구 | 가솔
친척 | 친지 | 친인척 | 일가
남자친구 | 남친
여자친구 | 여친

# people and roles
의사 | 의사선생님 | 닥터
선생님 | 선생 | 교사 | 쌤
교수 | 교수님
상사 | 윗사람 | 상관 | 보스 | 윗분
사장 | 사장님 | 대표 | 대표님 | 대표이사 | 오너
팀장 | 팀장님
동료 | 직장동료 | 회사동료
직원 | 사원 | 임직원 | 종업원
집주인 | 건물주 | 주인집 | 임대인
이웃 | 이웃집 | 이웃사람 | 옆집
친구 | 벗 | 친우 | 동무
절친 | 베프 | 단짝 | 베스트프렌드
고객 | 손님 | 고객님 | 클라이언트
변호사 | 변호인 | 로이어
경찰 | 경찰관 | 순경 | 경관
미용사 | 헤어디자이너
요리사 | 셰프 | 쉐프 | 주방장
알바 | 아르바이트 | 알바생 | 파트타이머
어르신 | 노인 | 연장자
룸메이트 | 룸메 | 동거인

# body and health
병원 | 의원 | 클리닉
약 | 약물 | 의약품 | 약품
약국 | 드럭스토어
독감 | 인플루엔자 | 플루
아프다 | 편찮다
질병 | 질환 | 병 | 병환
건강검진 | 검진 | 종합검진 | 건강검사
다이어트 | 감량 | 체중감량 | 살빼기
피곤하다 | 지치다 | 고단하다 | 피로하다
피로 | 피곤 | 피곤함
자다 | 주무시다
응급실 | 응급센터
백신 | 예방접종 | 접종
알레르기 | 알러지 | 앨러지

# food and eating
밥 | 식사 | 끼니 | 진지
먹다 | 드시다 | 잡수시다
아침밥 | 아침식사 | 조식
점심 | 점심밥 | 점심식사 | 런치
저녁밥 | 저녁식사 | 석식 | 디너
간식 | 주전부리 | 군것질 | 스낵 | 간식거리
식당 | 음식점 | 레스토랑 | 밥집
술집 | 주점 | 호프 | 호프집 | 포차 | 포장마차
음식 | 요리 | 먹거리 | 먹을거리 | 푸드
맛있다 | 맛나다 | 존맛
배고프다 | 출출하다 | 시장하다
소고기 | 쇠고기 | 우육
채소 | 야채 | 푸성귀
계란 | 달걀 | 에그
회식 | 팀회식

# drinks and coffee
술 | 주류 | 알코올 | 알콜
맥주 | 비어 | 생맥주 | 생맥
소주 | 쏘주
와인 | 포도주
아이스아메리카노 | 아아
라떼 | 카페라떼 | 라테 | 카페라테
카페 | 커피숍 | 커피전문점 | 다방
음료 | 음료수 | 드링크
생수 | 물 | 식수

# home and housing
집 | 자택 | 댁 | 보금자리
거실 | 리빙룸 | 응접실
부엌 | 주방 | 키친
화장실 | 욕실 | 변소 | 뒷간
이사 | 이주
월세 | 렌트 | 임대료 | 집세 | 방세
전세 | 전셋집 | 전세집
보증금 | 디파짓
부동산 | 공인중개사 | 중개소 | 복덕방
청소 | 대청소 | 클리닝
수리 | 수선 | 고치다 | 보수 | 리페어
에어컨 | 에어콘 | 냉방기
전기세 | 전기요금 | 전기료
주차장 | 주차공간 | 파킹
택배 | 소포

# money and payment
돈 | 금전 | 머니
현금 | 캐시 | 현찰
신용카드 | 크레디트카드 | 크레딧카드
계좌 | 통장 | 은행계좌
이체 | 송금 | 계좌이체
결제 | 지불 | 지급 | 계산 | 페이
가격 | 값
비용 | 경비 | 코스트
비싸다 | 값비싸다 | 고가
싸다 | 저렴하다 | 값싸다 | 저가
할인 | 세일 | 디씨 | 디스카운트 | 에누리
예산 | 버짓
월급 | 급여 | 급료 | 봉급 | 샐러리
대출 | 융자 | 론
계산서 | 청구서 | 인보이스 | 고지서
환불 | 환급 | 리펀드

# work and office
회사 | 직장 | 일터 | 컴퍼니
업무 | 일 | 작업
직업 | 일자리 | 잡 | 밥벌이
퇴근 | 칼퇴 | 칼퇴근
야근 | 잔업 | 초과근무 | 오버타임 | 연장근무
휴가 | 연차 | 월차 | 휴무 | 바캉스
재택근무 | 재택 | 원격근무 | 홈오피스
회의 | 미팅 | 회합
프로젝트 | 과제 | 플젝
마감 | 데드라인 | 마감일 | 기한 | 마감기한
보고서 | 리포트 | 레포트
발표 | 프레젠테이션 | 프리젠테이션 | 피티
이직 | 전직
퇴사 | 사직 | 사임 | 사표
취직 | 취업 | 입사
해고 | 잘리다 | 짤리다 | 파면 | 해임 | 정리해고
면접 | 인터뷰
이력서 | 레쥬메 | 레주메
출장 | 비즈니스트립
사무실 | 오피스 | 사무소

# school and study
대학 | 대학교
과외 | 개인교습 | 과외수업 | 튜터링
공부 | 학습 | 스터디 | 면학
수업 | 강의 | 레슨 | 강좌 | 클래스
숙제 | 과제물 | 홈워크
시험 | 테스트 | 고사
자격증 | 라이선스 | 라이센스
운전면허 | 운전면허증 | 면허증 | 면허
책 | 도서 | 서적 | 북
등록금 | 학비 | 수업료 | 교육비
연습 | 훈련 | 트레이닝
배우다 | 익히다 | 습득
가르치다 | 강습
인강 | 인터넷강의 | 온라인강의

# travel and transport
여행 | 트립 | 여정
해외 | 외국 | 국외
비행기 | 항공기 | 여객기
항공편 | 비행편 | 플라이트
항공권 | 비행기표 | 비행기티켓 | 에어티켓 | 이티켓
표 | 티켓 | 승차권 | 입장권
숙소 | 숙박 | 숙박시설
짐 | 수하물 | 짐가방 | 러기지
여권 | 패스포트
환승 | 경유 | 트랜짓 | 갈아타다
지연 | 연착 | 딜레이 | 지체
기차 | 열차
지하철 | 전철 | 메트로
자동차 | 승용차 | 자가용 | 마이카
렌터카 | 렌트카 | 렌탈카
교통체증 | 차막힘 | 정체 | 교통정체
내비게이션 | 내비 | 네비 | 네비게이션 | 길안내
자전거 | 바이크 | 사이클

# time and events
생일 | 생신 | 탄신 | 귀빠진날 | 버스데이
약속 | 선약
예약 | 예매 | 부킹
일정 | 스케줄 | 스케쥴 | 계획표 | 일과
파티 | 잔치 | 연회
장례 | 장례식 | 영결식
설 | 설날 | 구정 | 음력설
추석 | 한가위 | 중추절
크리스마스 | 성탄절 | 성탄 | 엑스마스
새해 | 신년 | 뉴이어
휴일 | 공휴일 | 쉬는날 | 빨간날
주말 | 위켄드
요즘 | 최근 | 근래 | 요새 | 요즈음
작년 | 지난해 | 전년
올해 | 금년
내년 | 다음해 | 명년 | 이듬해
다음주 | 차주 | 담주
지난주 | 전주 | 저번주
이번주 | 금주
알림 | 노티 | 노티피케이션 | 리마인더 | 푸시알림
선물 | 기프트
사진 | 포토

# shopping
사다 | 구매 | 구입 | 장만
팔다 | 판매 | 매각
가게 | 상점 | 매장 | 점포 | 숍 | 샵 | 스토어
마트 | 슈퍼 | 슈퍼마켓 | 대형마트 | 식료품점
쇼핑몰 | 몰 | 쇼핑센터
배송 | 운송 | 쉬핑
반품 | 반송 | 리턴
상품 | 제품 | 물품 | 아이템 | 품목
브랜드 | 상표 | 메이커
색깔 | 색 | 색상 | 컬러 | 칼라
중고 | 중고품 | 세컨핸드
품절 | 매진 | 솔드아웃 | 완판
무료 | 공짜 | 무상 | 거저
배송비 | 택배비 | 배송료 | 운송료 | 배달비
후기 | 리뷰 | 상품평 | 사용후기

# hobbies and sports
운동 | 체력단련 | 워크아웃 | 엑서사이즈
헬스장 | 헬스 | 헬스클럽 | 피트니스 | 피트니스센터 | 체육관
달리기 | 러닝 | 조깅 | 뜀박질
산책 | 산보 | 걷기 | 워킹
수영 | 헤엄 | 스위밍
축구 | 풋볼 | 사커
농구 | 바스켓볼
게임 | 겜 | 게이밍
영화 | 무비
영화관 | 극장 | 시네마 | 멀티플렉스
드라마 | 연속극
티비 | 텔레비전 | 티브이 | 테레비
음악 | 뮤직
노래방 | 가라오케 | 코노 | 코인노래방
유튜브 | 유튭 | 유투브
인스타그램 | 인스타
카카오톡 | 카톡

# pets and animals
반려동물 | 애완동물 | 펫 | 애완
개 | 강아지 | 멍멍이 | 댕댕이 | 반려견 | 애완견
고양이 | 냥이 | 야옹이 | 반려묘 | 애완묘
동물병원 | 동물의원
사료 | 먹이 | 펫푸드
미용 | 그루밍 | 애견미용
목줄 | 리드줄 | 개줄
입양 | 분양
똥 | 대변 | 응가
오줌 | 소변 | 쉬
동물 | 짐승

# technology and accounts
휴대폰 | 핸드폰 | 휴대전화 | 폰 | 스마트폰 | 핸펀 | 모바일
노트북 | 랩탑 | 랩톱 | 노트북컴퓨터
컴퓨터 | 피씨 | 피시 | 컴
이어폰 | 이어버드 | 헤드폰 | 헤드셋
충전기 | 차저
배터리 | 밧데리 | 밧테리 | 건전지 | 전지
와이파이 | 무선인터넷 | 무선랜 | 와파
앱 | 어플 | 어플리케이션 | 애플리케이션 | 응용프로그램
계정 | 아이디 | 어카운트
비밀번호 | 비번 | 패스워드 | 암호
로그인 | 로그온 | 사인인
회원가입 | 가입 | 등록 | 사인업
다운로드 | 다운 | 내려받다 | 내려받기
오류 | 에러 | 버그 | 결함
고장 | 먹통 | 망가지다
웹사이트 | 사이트 | 홈페이지 | 웹페이지

# communication
메시지 | 메세지 | 문자 | 문자메시지 | 쪽지 | 톡 | 디엠
전화 | 통화 | 콜 | 전화통화
연락처 | 전화번호 | 폰번호 | 핸드폰번호
이메일 | 메일 | 전자우편 | 이멜 | 전자메일
답장 | 회신 | 답신
영상통화 | 화상통화 | 페이스타임 | 비디오콜
화상회의 | 온라인회의 | 비대면회의 | 줌
단톡방 | 단톡 | 단체방 | 단체채팅방 | 단체톡방 | 그룹채팅
대화 | 이야기 | 얘기 | 토크
부탁 | 요청 | 의뢰 | 리퀘스트
초대 | 초청 | 인비테이션

# places in a city
미용실 | 헤어숍 | 헤어샵 | 미장원 | 헤어살롱 | 살롱
이발소 | 바버샵 | 바버숍 | 이용원
네일샵 | 네일숍 | 네일살롱
주민센터 | 동사무소 | 행정복지센터 | 주민자치센터
세탁소 | 클리닝샵
빨래방 | 코인세탁소 | 셀프빨래방
정류장 | 정거장 | 버스정류장 | 정류소
지하철역 | 전철역
시내 | 도심 | 다운타운 | 번화가

# feelings and preferences
좋아하다 | 선호 | 애호
싫어하다 | 싫다 | 혐오 | 미워하다 | 증오
사랑 | 애정 | 러브
최애 | 원픽
기쁘다 | 즐겁다 | 신나다 | 흥겹다
슬프다 | 서럽다 | 서글프다
화나다 | 짜증나다 | 열받다 | 성나다 | 빡치다
걱정 | 근심 | 염려 | 우려
불안 | 초조 | 불안감
외롭다 | 쓸쓸하다 | 고독하다
심심하다 | 지루하다 | 따분하다 | 노잼
재미있다 | 재밌다 | 흥미롭다 | 꿀잼
고맙다 | 감사하다
미안하다 | 죄송하다 | 송구하다
힘들다 | 고되다 | 버겁다 | 벅차다
예쁘다 | 이쁘다 | 아름답다 | 곱다
바쁘다 | 분주하다 | 정신없다

# common verbs of daily life
취소 | 캔슬 | 철회
옮기다 | 이동
만나다 | 뵙다 | 뵈다
시작 | 개시 | 착수 | 스타트
끝 | 종료 | 끝나다 | 마치다
완료 | 마무리 | 완성 | 끝내다
바꾸다 | 변경 | 교체 | 체인지
미루다 | 연기 | 순연 | 늦추다
보내다 | 발송 | 전송 | 부치다
주다 | 드리다
죽다 | 돌아가시다 | 사망 | 별세 | 타계 | 작고
쉬다 | 휴식 | 쉼
돕다 | 도와주다 | 도움 | 거들다
잃어버리다 | 잃다 | 분실
잊다 | 잊어버리다 | 까먹다
결정 | 정하다 | 확정 | 결심
확인 | 체크 | 점검
준비 | 채비 | 대비
헤어지다 | 이별 | 결별
사귀다 | 교제 | 연애
신청 | 지원 | 응모 | 접수

# clothing and beauty
옷 | 의류 | 의복 | 의상 | 옷가지
정장 | 양복 | 수트 | 슈트
티셔츠 | 티
바지 | 팬츠 | 슬랙스
청바지 | 진 | 데님 | 진바지
치마 | 스커트
원피스 | 드레스
외투 | 코트 | 아우터 | 겉옷
재킷 | 자켓 | 쟈켓 | 점퍼 | 잠바
운동화 | 스니커즈 | 스니커
신발 | 신 | 슈즈
가방 | 백
화장 | 메이크업 | 메이컵
머리카락 | 머리털 | 모발 | 헤어
이발 | 커트 | 컷 | 헤어컷

# weather and seasons
날씨 | 기상
비 | 강우 | 강수
장마 | 장마철 | 우기
덥다 | 무덥다
춥다 | 쌀쌀하다 | 싸늘하다
더위 | 폭염 | 무더위
추위 | 한파 | 혹한
맑다 | 화창하다 | 쾌청하다
흐리다 | 우중충하다
태풍 | 타이푼 | 허리케인
일기예보 | 예보 | 기상예보 | 날씨예보
계절 | 시즌 | 철

# family (english)
father | dad | daddy | papa
mother | mom | mum | mommy | mummy | mama
grandfather | grandpa | granddad | grandad | gramps
grandmother | grandma | granny | gran | nana
child | kid | youngster | offspring
baby | infant | newborn
husband | hubby
wife | missus | missis
brother | bro
sister | sis
aunt | auntie | aunty
family | folks
wedding | nuptials
boyfriend | bf
girlfriend | gf

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
customer | client | patron
guest | visitor
lawyer | attorney | solicitor | counsel | barrister
driver | chauffeur
police | cop | policeman | policewoman
hairdresser | hairstylist | stylist | barber
chef | cook
therapist | counselor | counsellor
babysitter | nanny | sitter | childminder
roommate | flatmate | housemate | roomie
coach | trainer

# body and health (english)
sick | ill | unwell | poorly
illness | disease | sickness | ailment
medicine | medication | meds | drug | remedy
pill | capsule | tablet
pharmacy | drugstore | dispensary
checkup | physical | screening
flu | influenza
stomachache | bellyache | tummyache
pain | ache | soreness
tired | exhausted | weary | fatigued
fatigue | exhaustion | tiredness
sleep | slumber | snooze
vaccine | vaccination | jab | shot | inoculation | immunization | immunisation
glasses | spectacles | specs | eyeglasses
stress | pressure | strain
physio | physiotherapy | physiotherapist

# food and eating (english)
breakfast | brekkie | brekky
lunch | luncheon
dinner | supper
restaurant | eatery | diner | bistro
cafe | café | coffeehouse | coffeeshop
bar | pub | tavern | saloon
takeaway | takeout | carryout
food | grub | chow | eats | fare
hungry | starving | famished | peckish
delicious | tasty | yummy | scrumptious | flavorful | flavourful
fries | chips | frites
vegetable | veggie | veg
eggplant | aubergine
zucchini | courgette
cilantro | coriander
shrimp | prawn
supermarket | grocer | hypermarket | superstore
bill | invoice | tab

# drinks and coffee (english)
drink | beverage
soda | pop | fizzy
beer | ale | lager | brew
alcohol | booze | liquor | spirits
coffee | java
decaf | decaffeinated

# home and housing (english)
home | house | residence | dwelling | abode
apartment | flat | condo | condominium | unit
bathroom | restroom | toilet | loo | washroom | lavatory | wc
garden | yard | backyard
rent | rental | lease
deposit | bond
laundry | washing
trash | garbage | rubbish | waste | litter
repair | fix | mend
sofa | couch | settee
fridge | refrigerator | icebox
aircon | ac | airconditioning
neighbourhood | neighborhood | district | locality
elevator | lift
parcel | package
faucet | tap

# money and payment (english)
money | cash | dough | dosh | moolah
payment | remittance
price | cost
fee | charge
expensive | pricey | costly | overpriced
cheap | inexpensive | affordable | cheapo
discount | markdown | reduction | sale
coupon | voucher
salary | wage | pay | paycheck | paycheque | earnings | income
bonus | incentive
refund | reimbursement | repayment | rebate
fine | penalty
expenses | expenditure | outgoings | spending
wallet | billfold
allowance | pocketmoney

# work and office (english)
job | occupation | profession | employment
office | workplace
company | firm | corporation | business | enterprise
meeting | huddle | standup
project | initiative | undertaking
deadline | cutoff | duedate
presentation | slides | deck | slideshow | powerpoint | ppt
document | doc
resign | quit | resignation
sack | dismiss | fire | layoff
hire | recruit | employ
resume | cv | résumé
team | squad | crew
vacation | holiday | pto | timeoff | vacay | hols
wfh | telework | telecommute | remotework
review | evaluation | appraisal | assessment
retire | retirement | retiree

# school and study (english)
university | uni | college | varsity
class | lesson | lecture | tutorial
homework | assignment | coursework
exam | examination | test | quiz
degree | diploma
learn | study
teach | instruct | educate
practice | practise | training | drill
tuition | schoolfees
kindergarten | preschool | prek
daycare | nursery | creche | childcare
license | licence | permit

# travel and transport (english)
trip | journey | voyage | excursion | outing | travel
airplane | plane | aeroplane | aircraft | jet
accommodation | accomodation | lodging
hotel | inn | lodge
hostel | guesthouse | bnb
luggage | baggage
train | rail
subway | metro | underground | tube
taxi | cab | minicab
car | auto | automobile | vehicle
gas | petrol | fuel | gasoline
road | street
bicycle | bike | cycle
depart | departure | leave

# time and events (english)
birthday | bday
anniversary | anniv
appointment | appt
reservation | booking | book | reserve
schedule | timetable | rota | roster
calendar | planner | diary
party | bash | shindig | celebration | fiesta
christmas | xmas | noel | yule | christmastime
weekend | wknd
tomorrow | tmrw | tmr
yesterday | yday
reminder | notification | alert
postpone | defer | reschedule | putoff
gift | present
photo | picture | pic | photograph | snapshot | snap

# shopping (english)
shop | store | boutique | outlet
mall | plaza | galleria
buy | purchase | acquire | procure
delivery | shipping | dispatch | shipment
product | item | goods | merchandise | merch | ware
brand | label | marque
color | colour | hue | shade | tint
secondhand | preowned | preloved
cart | trolley | basket
checkout | till
free | complimentary | gratis

# hobbies and sports (english)
hobby | pastime
exercise | workout
gym | gymnasium | fitness
run | jog
walk | stroll | amble | saunter
football | soccer | footy
gaming | videogame
movie | film | flick
cinema | theater | theatre | multiplex
show | programme | series
tv | television | telly
instagram | insta | ig
facebook | fb
youtube | yt

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

# technology and accounts (english)
phone | mobile | cellphone | cell | smartphone | handset
laptop | notebook
computer | pc
headphone | earphone | earbud | headset | airpod
internet | web | net
wifi | wireless | wlan
app | application
password | passcode | passphrase | pw | pwd
login | signin | logon
signup | register | registration | enrol | enroll
delete | remove | erase
bug | glitch | error | fault
broken | busted | kaput
website | site | webpage | homepage
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
invite | invitation
thanks | thank | thx | ty
sorry | apology | apologize | apologise

# places in a city (english)
salon | parlour | parlor
laundromat | launderette | laundrette
sauna | bathhouse | spa
carpark | parkinglot | parking
downtown | citycentre | citycenter | cbd
hometown | birthplace
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
boring | dull | tedious | monotonous
busy | swamped | slammed
difficult | hard | tough | challenging | tricky
easy | simple | effortless | straightforward
beautiful | pretty | lovely | gorgeous | stunning
awesome | amazing | fantastic | wonderful | terrific
awful | terrible | horrible | dreadful

# common verbs of daily life (english)
cancel | cancellation
relocate | relocation | move
meetup | hangout | catchup | gettogether | gathering
start | begin | commence | kickoff
end | finish | conclude | complete
change | alter | modify | amend | adjust
replace | swap | substitute | exchange
rest | relax | unwind | chill
help | assist | aid | assistance
choose | pick | select | opt
check | verify | inspect
breakup | split

# clothing and beauty (english)
clothes | clothing | garment | apparel | attire | outfit
tshirt | tee
pants | trousers | slacks
jeans | denim
sweater | jumper | pullover | jersey
sneakers | kicks
backpack | rucksack | knapsack | bookbag
pyjamas | pajamas | pjs | jammies | nightwear | sleepwear
underwear | undies | underclothes
haircut | trim

# weather and seasons (english)
rain | rainfall | precipitation | shower
hot | boiling | sweltering | scorching
cold | chilly | freezing | nippy | frosty
humid | muggy | steamy
sunny | clear | bright
cloudy | overcast
spring | springtime
summer | summertime
autumn | fall
winter | wintertime

# --- broader and related terms: how people refer back to what they said ---

# work and career (related)
태스크 | 과업 | 업무
워크숍 | 워크샵 | 연수회
세미나 | 심포지엄 | 포럼 | 학술회의
컨퍼런스 | 콘퍼런스 | 학회
강연 | 연설 | 스피치 | 키노트 | 기조연설
멘토링 | 코칭
멘토 | 사수
연수 | 교육 | 오리엔테이션 | 오티
평가 | 고과
제출 | 서브밋 | 제출물
승진 | 진급 | 승격
부서 | 팀 | 부문 | 파트
신입 | 신참 | 뉴비
인턴 | 인턴십 | 인턴쉽 | 실습생
계약 | 컨트랙트
협업 | 협력 | 협동
거래처 | 고객사 | 파트너사 | 협력사
채용 | 구인 | 리크루팅 | 모집
마감 | 납기
상사 | 부장

# work and career (related, english)
conference | convention | summit | symposium | congress
speech | talk | keynote
workshop | seminar | webinar | masterclass
mentoring | mentorship | coaching | guidance
mentor | advisor | adviser
onboarding | orientation | induction
promotion | advancement
submit | submission | turnin
extension | extend | prolong
feedback | critique | comments
department | dept | division
intern | internship | trainee | apprentice | apprenticeship
contract | agreement
collaboration | collaborate | cooperation | cooperate | partnership
career | profession | vocation
application | apply | applicant
achievement | accomplishment | milestone
proposal | propose | pitch
preparation | prepare | prep

# travel and transport (related)
좌석 | 시트
창가석 | 창가
이코노미 | 일반석
숙소 | 호텔 | 리조트
숙소 | 게스트하우스 | 민박 | 펜션
체크인 | 입실
탑승 | 보딩
비자 | 사증
대사관 | 영사관 | 총영사관 | 공관
항공사 | 에어라인
기차 | 케이티엑스 | ktx | srt
택시 | 콜택시
자동차 | 차량
관광 | 투어 | 구경
환전 | 환전소 | 외화
캐리어 | 트렁크
면세점 | 듀티프리 | 면세
귀국 | 입국

# travel and transport (related, english)
flight | plane | airfare
airline | carrier | airways
accommodation | hotel | motel | resort
accommodation | airbnb | guesthouse | hostel
airport | terminal
visa | evisa | esta
embassy | consulate | consular
bus | coach | shuttle | minibus
railway | railroad | rail
car | sedan | hatchback | suv
car | truck | pickup
taxi | uber | lyft | rideshare
carrental | rentalcar | hirecar
highway | motorway | freeway | expressway | interstate
sightseeing | tour | touring | sightsee
suitcase | luggage | carryon
itinerary | schedule
layover | stopover
getaway | vacation
departure | depart | takeoff
arrival | arrive | landing

# housing and moving (related)
아파트 | 맨션 | 아파트먼트
빌라 | 다세대 | 연립
집 | 아파트
집 | 빌라 | 주택
집 | 오피스텔 | 원룸
이삿짐센터 | 이사센터
입주 | 전입
인테리어 | 리모델링 | 집수리 | 시공
가구 | 퍼니처
살림 | 살림살이 | 세간 | 가재도구
소파 | 쇼파 | 카우치
가전 | 가전제품
베란다 | 발코니 | 테라스
곰팡이 | 곰팡
보일러 | 난방 | 히터 | 난방기
소음 | 노이즈
분리수거 | 리사이클
층 | 층수 | 플로어

# housing and moving (related, english)
home | apartment
home | townhouse | townhome
apartment | studio | bedsit
movers | removalist | moving
tenancy | lease | leasehold
heating | heater | furnace | boiler | radiator
mold | mould | mildew | damp
leak | leakage | drip | seepage
furniture | furnishings
balcony | veranda | verandah | terrace | patio | porch
appliance | whitegoods
vacuum | hoover | roomba
renovation | renovate | remodel | refurbishment | refurbish | makeover
realtor | realty | broker | estateagent
mortgage | homeloan
noise | noisy | din
chores | housework | housekeeping
handyman | repairman | contractor | tradesman | technician
housing | accommodation | lodgings

# health, doctors and gyms (related)
진료 | 진찰 | 외래
치과 | 덴탈
처방 | 처방전
비타민 | 서플리먼트 | 보충제
타이레놀 | 두통약 | 이부프로펜 | 애드빌
감기 | 목감기 | 몸살
두통 | 편두통
복통 | 배탈 | 배앓이
수술 | 시술 | 오퍼레이션
부상 | 상처 | 외상 | 다치다
임신 | 임신부 | 임산부
락커 | 사물함 | 로커
라커룸 | 락커룸
수영장 | 풀장
트레이너 | 코치
웨이트 | 근력
유산소 | 카디오
담배 | 흡연 | 궐련

# health, doctors and gyms (related, english)
appointment | consultation | consult
appointment | checkup
dentist | dental | orthodontist
pediatrician | paediatrician | pediatrics | paediatrics | peds
psychiatrist | psychologist | shrink | therapist
emergency | casualty | urgentcare
clinic | medicalcentre | healthcentre | medicalcenter
prescription | script | rx
supplement | vitamin | multivitamin
painkiller | analgesic | ibuprofen | advil
painkiller | paracetamol | acetaminophen | tylenol
surgery | operation | procedure
injury | injure | hurt | wound
pregnant | pregnancy
insurance | coverage
locker | cubby
lockerroom | changingroom | changeroom
membership | subscription
pool | swimmingpool | lido
weightlifting | weights | strengthtraining
cardio | aerobic | aerobics
diagnosis | diagnose

# food, restaurants and diets (related)
채식 | 채식주의 | 베지테리언
저탄고지 | 키토 | 키토제닉 | 저탄수
단식 | 금식
배달 | 배민 | 쿠팡이츠
포장 | 테이크아웃
집밥 | 가정식 | 홈쿡
레시피 | 조리법 | 요리법
뷔페 | 부페
빵집 | 베이커리 | 제과점
디저트 | 후식 | 스위츠
치킨 | 통닭 | 후라이드
야식 | 밤참
맵다 | 매콤하다 | 얼큰하다
입맛 | 식성
도시락 | 벤또
구내식당 | 카페테리아 | 학식
중식 | 중국집 | 중식당
일식 | 일식집

# food, restaurants and diets (related, english)
diet | regimen | mealplan
vegan | plantbased
vegetarian | meatless | meatfree
keto | ketogenic | lowcarb
glutenfree | coeliac | celiac
delivery | doordash | ubereats | deliveroo | grubhub
homemade | homecooked | homecooking
buffet | smorgasbord
bakery | patisserie | bakeshop | boulangerie
dessert | pudding | sweets | afters
snack | nibbles | munchies
calorie | kcal
spicy | fiery | peppery | piquant
lunchbox | bento | packedlunch
groceries | grocery | provisions
picky | fussy | choosy
cafeteria | canteen | messhall | lunchroom | foodcourt
dietitian | nutritionist
nutrition | nutrient | nourishment
appetite | hunger

# family, children and school (related)
학원 | 사교육
캠프 | 수련회
육아 | 양육 | 보육 | 돌봄
어린이집 | 놀이방
유치원 | 유아원 | 킨더가든 | 킨더
초등학교 | 초교 | 국민학교
고등학교 | 고교
초등학생 | 초딩 | 초등생
개학 | 개강
학기 | 세메스터
성적 | 점수 | 학점 | 내신
학부모 | 학부형
입학 | 입학식 | 진학
졸업 | 졸업식
소풍 | 피크닉
학용품 | 문구 | 문방구
베이비시터 | 시터 | 돌보미
유모차 | 유아차
장난감 | 완구 | 토이 | 놀잇감
시댁 | 시집

# family, children and school (related, english)
afterschool | extracurricular | enrichment
camp | summercamp | daycamp | sleepaway
tutoring | cramschool | hagwon
elementary | gradeschool | primaryschool
highschool | secondaryschool
reportcard | transcript
graduation | graduate | grad
fieldtrip | excursion
parenting | childrearing | upbringing
diaper | nappy
stroller | pram | pushchair | buggy
toy | plaything
playground | playpark
grandchild | grandkid | grandson | granddaughter
sibling | brother
sibling | sister
teenager | teen | adolescent
principal | headteacher | headmaster | headmistress
kids | children

# money, shopping and payments (related)
저축 | 적금 | 예금 | 저금
투자 | 재테크
주식 | 증권 | 스탁
코인 | 비트코인 | 암호화폐
세금 | 조세 | 택스
할부 | 분납
잔액 | 잔고 | 밸런스
빚 | 부채 | 채무
구독 | 섭스크립션
쿠폰 | 할인권 | 바우처
적립 | 포인트 | 마일리지 | 리워드
충동구매 | 지름신 | 지르다
편의점 | 구멍가게
쇼핑몰 | 아울렛 | 아웃렛
시장 | 재래시장 | 장터
장바구니 | 카트 | 쇼핑카트
보증 | 워런티
에이에스 | 애프터서비스
보험 | 실비
지출 | 소비 | 씀씀이

# money, shopping and payments (related, english)
budget | finances
savings | nestegg
invest | investment | portfolio
crypto | bitcoin | cryptocurrency | btc
tax | taxation | levy
installment | instalment | bnpl | afterpay | klarna
card | creditcard
card | debitcard
receipt | stub
debt | liability | arrears | owing
subscription | subscribe | recurring
rewards | loyalty | loyaltypoints
cashback | rebate
mall | outlets | shoppingcentre | shoppingcenter
market | marketplace | bazaar | farmersmarket
warranty | guarantee
loan | borrow | lend | lending
transaction | transact | payment
transfer | banktransfer | wiretransfer

# devices and tech (related)
기기 | 디바이스 | 장치 | 단말기
컴퓨터 | 노트북
컴퓨터 | 데스크톱 | 데스크탑 | 본체
노트북 | 맥북
태블릿 | 패드 | 아이패드 | 갤럭시탭
시계 | 손목시계 | 와치 | 워치
모니터 | 디스플레이 | 화면 | 스크린
프린터 | 프린트기 | 복합기 | 인쇄기
에어팟 | 버즈 | 이어폰
어댑터 | 변환기 | 젠더
폰 | 아이폰
폰 | 갤럭시 | 갤폰
업데이트 | 갱신 | 패치
설치 | 인스톨 | 깔다
삭제 | 지우다 | 제거
스크린샷 | 캡처 | 캡쳐 | 스샷
유심 | 심카드 | 이심
게임기 | 콘솔 | 플스 | 플레이스테이션
카메라 | 사진기 | 디카 | 캠

# devices and tech (related, english)
device | gadget | gizmo | hardware
computer | laptop
computer | desktop | workstation
laptop | macbook | chromebook
tablet | ipad
smartwatch | applewatch | galaxywatch
monitor | display | screen
printer | copier | photocopier
charger | chargingcable | powerbrick
adapter | adaptor | converter | dongle
phonecase | phonecover
phone | iphone
phone | android | galaxy
update | patch | firmware
install | setup
backup | archive
screenshot | screencap | screengrab
console | playstation | xbox | nintendo
camera | cam | digicam
reset | reboot | restart

# hobbies, sports, music and reading (related)
취미 | 여가 | 하비
소설 | 픽션
도서관 | 라이브러리
서점 | 책방
작가 | 저자 | 지은이 | 필자 | 글쓴이
만화 | 만화책
노래 | 곡
가수 | 보컬 | 싱어
공연 | 콘서트 | 라이브
공연 | 음악회 | 연주회
골프 | 라운딩 | 라운드
캠핑 | 야영 | 차박
등산 | 산행 | 하이킹 | 트레킹
경기 | 시합 | 매치
그림 | 회화 | 드로잉 | 페인팅
베이킹 | 제빵 | 홈베이킹
전시 | 전시회 | 전람회
동호회 | 동아리 | 소모임 | 클럽
춤 | 댄스 | 무용

# hobbies, sports, music and reading (related, english)
leisure | recreation | freetime | downtime
novel | fiction
bookstore | bookshop | bookseller
author | writer | novelist
comic | comicbook | manga | webtoon
song | tune
singer | vocalist
concert | gig | recital
camping | campout | glamping
fishing | angling
hike | trek
tournament | competition | contest | championship | tourney
drawing | sketch | doodle
painting | artwork | canvas
photography | photoshoot
gardening | horticulture
boardgame | tabletop
club | society
stadium | arena | ballpark

# personal care and beauty (related)
파마 | 퍼머 | 빠마
염색 | 염색약
앞머리 | 뱅
페디큐어 | 패디
속눈썹 | 래쉬
눈썹 | 아이브로우 | 브로우
왁싱 | 제모
마사지 | 안마 | 맛사지 | 지압
화장품 | 코스메틱
스킨 | 토너 | 화장수
썬크림 | 선블록
립스틱 | 립 | 틴트
향수 | 퍼퓸 | 코롱
면도 | 쉐이빙 | 셰이빙
면도기 | 쉐이버 | 셰이버
드라이기 | 헤어드라이어 | 드라이어
고데기 | 헤어아이론
뷰티 | 미용
여드름 | 뾰루지 | 트러블

# personal care and beauty (related, english)
barbershop | barber
dye | haircolor | haircolour | balayage
manicure | mani | nails | gelnails
pedicure | pedi
nailsalon | nailbar | nailshop
lashes | eyelashes
wax | waxing | epilation
facial | skincare
massage | rubdown
cosmetics | makeup
moisturizer | moisturiser | lotion
sunscreen | sunblock | spf | suncream
lipstick | lippy | lipgloss
perfume | fragrance | cologne | scent
razor | shaver | trimmer
hairdryer | blowdryer | blowdry
acne | pimple | zit | blemish
hairstyle | hairdo | coif | coiffure
salon | hairsalon
hairloss | balding | baldness

# government paperwork and documents (related)
서명 | 사인 | 싸인
도장 | 인장 | 직인
발급 | 발행 | 교부
갱신 | 연장 | 리뉴얼
만료 | 만기
관청 | 구청
관청 | 시청
출입국 | 이민국
번역 | 번역본
절차 | 수속 | 프로세스
서식 | 폼
벌금 | 딱지
투표 | 선거
군대 | 병역
우체국 | 우편국
우편 | 우편물 | 편지 | 서신
국적 | 시민권
영주권 | 그린카드
허가 | 승인 | 허락

# government paperwork and documents (related, english)
paperwork | documentation | forms
certificate | cert | certification
id | identification | idcard
residencepermit | greencard | permanentresident
citizenship | naturalization | naturalisation | nationality
immigration | uscis | ircc
notary | notarize | notarise | notarization
signature | autograph
renew | reissue
expire | expiry | expiration | lapse
citation | summons
irs | hmrc | taxman
cityhall | townhall | council | municipality
dmv | dvla
postal | usps | postoffice
vote | voting | election | ballot | poll
ssn | socialsecurity
bureaucracy | redtape | admin
government | govt | gov
verification | verify | validate | validation
authorization | authorize | authorise | permission

# pets (related)
배변 | 용변
펫시터 | 도그워커 | 펫시팅
간식 | 츄르
심장사상충 | 사상충
중성화 | 거세 | 불임수술
켄넬 | 크레이트 | 케이지
관상어 | 열대어 | 물고기
어항 | 수조 | 아쿠아리움
햄스터 | 햄찌
토끼 | 토깽이 | 래빗
거북이 | 거북
보호소 | 동물보호소 | 쉼터
길고양이 | 도둑고양이
고양이 | 캣
개 | 도그
미용 | 트리밍 | 그루밍
목줄 | 하네스

# pets (related, english)
vet | veterinarian | veterinary | animalhospital | vetclinic
housetrained | housebroken | pottytrained
litterbox | littertray | catbox
cattree | cattower | scratchingpost
kennel | crate | cage
pethotel | cattery | petboarding
petsitter | dogwalker | petsitting
dogtreat | rawhide
heartworm | dewormer | deworming
aquarium | fishtank
bird | budgie | parakeet
bird | parrot | cockatiel
tortoise | turtle | terrapin
shelter | animalshelter | rescue
petparent | furparent | petowner
petstore | petshop
adopt | rehome
groomer | petgroomer
breed | pedigree | purebred
leash | harness

# colors and clothing (related)
빨강 | 빨간색 | 빨간 | 레드 | 적색
파랑 | 파란색 | 파란 | 블루 | 청색
노랑 | 노란색 | 노란 | 옐로우 | 옐로 | 황색
초록 | 초록색 | 녹색 | 그린
검정 | 검은색 | 블랙 | 흑색
흰색 | 하얀색 | 화이트 | 백색
회색 | 그레이 | 잿빛 | 쥐색
분홍 | 분홍색 | 핑크
보라 | 보라색 | 퍼플 | 자주색 | 바이올렛
갈색 | 브라운 | 밤색 | 고동색
주황 | 주황색 | 오렌지색
베이지 | 베이지색 | 아이보리 | 크림색
남색 | 곤색 | 감색
셔츠 | 남방 | 와이셔츠
니트 | 스웨터
패딩 | 롱패딩 | 구스다운
트레이닝복 | 추리닝 | 운동복 | 츄리닝 | 체육복
잠옷 | 파자마 | 홈웨어
모자 | 캡
신발 | 구두
가방 | 핸드백 | 숄더백
액세서리 | 악세서리 | 악세사리 | 장신구

# colors and clothing (related, english)
red | crimson | scarlet
blue | azure | cobalt
grey | gray | charcoal | slate
purple | violet | lilac | lavender | mauve
pink | rose | blush | fuchsia | magenta
brown | tan | chestnut
beige | ivory | offwhite | ecru | nude
black | ebony | jetblack
green | emerald | jade
yellow | mustard | lemon
orange | tangerine | amber
shirt | blouse | buttondown
hoodie | hoody | sweatshirt | crewneck
coat | jacket | outerwear
tracksuit | sweatpants | joggers | trackies | sweats | trackpants
hat | cap | baseballcap
shoe | footwear
bag | handbag | purse
purse | wallet
jewelry | jewellery | jewels
suit | tuxedo | tux
dress | gown | frock
swimsuit | swimwear | bathingsuit | cossie

# events, parties and celebrations (related)
번개 | 벙개
행사 | 이벤트
축제 | 페스티벌 | 페스티발 | 축전
결혼식 | 웨딩 | 혼례 | 예식
뒤풀이 | 뒷풀이
초대장 | 청첩장
초대장 | 초청장
돌잔치 | 첫돌
환갑 | 회갑 | 육순
송년회 | 망년회
축하 | 셀러브레이션 | 경축
꽃다발 | 부케
연휴 | 황금연휴
예식장 | 결혼식장 | 식장
빈소 | 장례식장 | 상갓집
동창회 | 동문회 | 반창회
프러포즈 | 프로포즈 | 청혼
모임 | 만남 | 회동
집들이 | 하우스워밍

# events, parties and celebrations (related, english)
event | occasion
festival | fest | fete | carnival
wedding | marriage | matrimony
reception | banquet | gala
evite | invitation
stag | stagdo | bachelorparty
hen | hendo | bachelorette | hens
farewell | sendoff | leavingdo
reunion | homecoming
funeral | memorial
congratulations | congrats | congratulate | kudos
bouquet | flowers | posy
venue | hall | ballroom
souvenir | keepsake | memento
engagement | betrothal | engaged
bbq | barbecue | barbeque | cookout | braai
sleepover | slumberparty
rehearsal | runthrough | dressrehearsal
attendance | attend | attendee
costume | fancydress | dressup

# places in a city and neighbourhoods (related)
동네 | 마을
근처 | 주변 | 인근 | 부근
공원 | 파크
교회 | 예배당
절 | 사찰
은행 | 뱅크
정비소 | 카센터
놀이공원 | 테마파크 | 유원지
해변 | 바닷가 | 해수욕장 | 비치 | 해안
강변 | 강가 | 리버사이드
골목 | 골목길 | 뒷골목 | 샛길
사거리 | 네거리 | 교차로
횡단보도 | 건널목
건물 | 빌딩 | 건축물
명소 | 랜드마크 | 관광지
시골 | 농촌 | 촌
도시 | 시티 | 도회지
교외 | 외곽 | 근교 | 변두리
목욕탕 | 대중목욕탕 | 사우나 | 찜질방
시내 | 읍내

# places in a city and neighbourhoods (related, english)
nearby | closeby | vicinity
suburb | suburbs | outskirts | burbs | suburbia
village | hamlet
countryside | rural | boondocks
piazza | plaza | townsquare
church | chapel | cathedral | parish
temple | shrine
mosque | masjid
atm | cashpoint | cashmachine
mechanic | autoshop | garage | repairshop
themepark | amusementpark | funfair | fairground
beach | seaside | shore | coast | seashore
riverside | riverfront | waterfront | embankment
alley | alleyway | lane | backstreet
intersection | crossroads | junction
crosswalk | zebracrossing | crossing
skyscraper | highrise | towerblock
landmark | attraction | hotspot
hood | neighbourhood
cemetery | graveyard | churchyard
"""
