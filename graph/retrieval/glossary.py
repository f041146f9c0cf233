"""Query expansion for the lexical retrievers: an HR and office glossary.

BM25 and the hashing embeddings only match words that occur in a document, so an English
question cannot reach a Korean document and "월급" does not reach "급여". Classic
cross-language retrieval solves this with query translation through a bilingual
dictionary; this is a small one. It was written from the vocabulary of the documents in
data/docs, topic by topic (each Korean term a document uses, with the English and
colloquial Korean words people use for it), not from evaluation questions. Semantic
embeddings (OpenAI) need none of this and get the raw query.

Each line is `phrase | phrase = 한국어 용어들`: any of the phrases on the left, found in a
query, adds the Korean terms on the right as alternatives of the same query concept.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from graph.retrieval.tokenize import stem_english, tokens

EN_KO = """
# leave and time off
annual leave | vacation | vacation day | pto | paid time off | time off | day off | days off | leave | holiday | holidays = 연차 휴가
half day | half-day | half day off = 반차
quarter day = 반반차
grant | granted | entitled | entitlement | accrue | accrual | how many days = 부여 연차
carry over | carryover | roll over | rollover = 이월
unused | leftover | remaining = 미사용 남은
expire | expired | forfeit | lapse = 소멸
sick | sick leave | ill | illness | sick day | sick days = 병가
doctor's note | doctor note | medical certificate | sick note = 진단서 소견서
bereavement | funeral | pass away | passes away | passed away | died | death = 사망 경조사
wedding | marriage | married | marry | get married = 결혼
grandmother | grandfather | grandparent | grandma | grandpa = 조부모
parent | mother | father | mom | dad = 부모
spouse | wife | husband = 배우자
child | children | kid | kids | son | daughter = 자녀
sibling | brother | sister = 형제자매
military training | reserve forces | jury duty | court = 예비군 법원 공가
sabbatical | long service leave | refresh leave = 리프레시 휴가 근속
# pregnancy and parenting
maternity leave | maternity = 출산전후휴가 출산
paternity leave | paternity = 배우자 출산휴가
parental leave | childcare leave = 육아휴직
birth | give birth | gives birth | childbirth | baby | newborn | delivery = 출산 출생
pregnant | pregnancy = 임신
twins | twin | multiple births = 쌍둥이 다태아
return to work | come back | coming back = 복직
reduced hours | shorter hours | part-time = 근로시간 단축
fertility | infertility | ivf = 난임
# working hours and overtime
working hours | work hours | office hours | schedule = 근무 시간
start work | start time | clock in | arrive = 출근
leave work | leave early | finish work | clock out | go home = 퇴근
flexible hours | flextime | flex time | flexible schedule = 시차출퇴근제
core hours = 핵심 근무 시간
lunch break | lunch = 점심시간
overtime | extra hours | work late | working late = 초과근무 연장근무 야근
night work | night shift | late night = 야간근무
holiday work | weekend work | work on a holiday | working on a holiday | working on weekends = 휴일근무
pay rate | overtime pay | premium | hourly rate | hourly wage = 수당 통상시급
comp time | compensatory leave | time off in lieu | toil = 보상휴가
attendance | timesheet | time record | punch in = 출퇴근 기록 근태
correct | correction = 수정 요청
# remote work
remote | remotely | remote work | work from home | working from home | wfh | telework | home office = 재택근무
workation | work vacation = 워케이션
another country | abroad | overseas | foreign country = 해외
public wifi | coffee shop | cafe = 공용 와이파이 카페
stipend | subsidy = 지원금
phone bill | internet bill | utilities = 통신비 전기료
# expenses
expense | expenses | out of pocket = 경비
reimburse | reimbursed | reimbursement | claim | get reimbursed | pay back | refund = 정산 경비
receipt | receipts = 영수증
proof | documentation = 증빙
tax invoice = 세금계산서
simple receipt | handwritten receipt = 간이영수증
meal | dinner | food = 식대 식사
taxi | cab = 택시비 택시
client entertainment | entertaining clients | entertainment = 접대비
team dinner | team meal = 회식비
office supplies | supplies = 소모품
deadline | due | due date | submit by = 기한
approve | approval | approved | approver | sign off = 승인
rejected | returned = 반려
# corporate card
corporate card | company card | company credit card = 법인카드
credit card | card = 카드
limit | cap | spending limit | maximum = 한도
gift card | gift cards | gift certificate | voucher | gifticon = 상품권 기프티콘
prepaid card = 선불카드
golf = 골프장
cash advance = 현금서비스
statement | transactions | usage history = 사용 내역
suspend | suspended | blocked | frozen = 정지
stolen | theft = 도난 분실
# business travel
business trip | trip | travel | traveling | travelling = 출장
domestic = 국내
international = 해외
flight | fly | airfare | plane | airline = 항공권 항공
economy = 이코노미석
premium economy = 프리미엄 이코노미
business class = 비즈니스석
long-haul | long haul | long flight = 비행시간 8시간
train = 기차 KTX
travel agency | travel agent = 여행사
hotel | accommodation | lodging = 숙박비 숙박
per diem | daily allowance = 일비
own car | personal car | my car | drive | driving | mileage | fuel | gas = 본인 차량 주행 거리
toll | tolls = 통행료
roaming | mobile data = 로밍
visa | passport = 비자 여권
trip report = 출장 보고서
exchange rate = 환율
# pay
salary | pay | wage | wages | paycheck | paid = 급여
payday | pay day = 급여일 급여
payslip | pay slip | pay stub = 급여 명세서
bank account | account number = 계좌
year-end tax | tax settlement | tax return | tax = 연말정산 세금
installments | installment | split payment = 나눠
annual salary | raise | salary increase = 연봉 인상률
prorated | pro rata = 날짜 비례
withholding = 원천징수영수증
# benefits
welfare points | benefit points | welfare | points = 복지 포인트
health checkup | medical checkup | health check | checkup | health screening = 건강검진
congratulatory | condolence money | cash gift = 경조금
tuition | school fees | college | university = 학자금 등록금 대학생
resort | condo | holiday home = 휴양소 콘도
long service | long-service award = 장기근속
club | clubs = 동호회
insurance = 보험
# training
training | trainings | course | courses | class | education = 교육
training budget | education budget | learning budget | budget = 교육비 한도
online course = 온라인 강좌
lecture = 강의
certification | certificate | cert | exam = 자격증 응시료
book | books | ebook = 도서
conference | conferences = 컨퍼런스 학회
speaker | speaking | talk = 발표자
language class | english lessons | phone english = 어학 전화영어
mandatory training | required training | compliance training = 의무교육 필수
# performance and promotion
review | performance review | evaluation | appraisal = 평가 성과
goal | goals | objective | objectives | okr = 목표
grade | grades | rating | ratings = 등급
distribution | ratio = 비율
peer review | peer feedback | peers | colleague | coworker = 동료 평가
self review | self-review | self assessment = 자기 평가
appeal | dispute | disagree | objection = 이의 신청
promotion | promotions | promoted = 승진
level | rank | job title = 직급
bonus = 성과급
# security
password | passwords | passcode = 비밀번호
two-factor | 2fa | mfa | authenticator | one-time password = 2단계 인증 OTP
data classification | classification | classified = 자료 등급
confidential | sensitive = 대외비
top secret | secret = 극비
external email | outside email = 외부 메일
usb | thumb drive | flash drive | external drive = USB 이동식 저장장치
chatgpt | generative ai | ai tool | ai = 생성형 AI ChatGPT
lock screen | screen lock | lock my screen = 화면 잠금
phishing | suspicious email | suspicious link | scam = 피싱
malware | virus | ransomware = 악성코드
leak | data breach | breach = 유출
security incident | incident = 보안 사고
report = 신고
# devices
laptop | notebook | computer | macbook = 노트북
monitor | screen | display = 모니터
replace | replacement | upgrade | new laptop = 교체
slow | performance problem = 성능
admin rights | administrator = 관리자 권한
broken | damaged | damage | cracked = 파손
repair = 수리
personal device | personal phone | own phone | byod | my phone = 개인 기기 휴대폰 한빛가드
personal laptop | own laptop | personal computer = 개인 노트북
company network | internal network | intranet = 사내망
take out | take home | outside the office | off-site = 반출
company phone | work phone = 회사 휴대폰
# IT helpdesk
helpdesk | help desk | it support | tech support | it helpdesk | it team = IT 헬프데스크
locked out | account locked | lockout = 계정 잠금 해제
reset | forgot my password | forgot password | forgotten = 비밀번호 재설정
software | program | app | tool = 소프트웨어 프로그램
install | installation = 설치
license = 라이선스
wifi | wi-fi | wireless | internet = 와이파이
printer | print | printing = 프린터 출력
color = 컬러
remote support = 원격 지원
# office facilities
meeting room | conference room = 회의실
book a | book the | reserve | reservation | booking = 예약
parking | park = 주차
visitor | visitors | guest | guests = 방문객
badge | access card | id card | key card = 출입카드
cafeteria | canteen = 카페테리아
nap room | sleeping room = 수면실
lounge | break room = 휴게실
package | parcel | delivery = 택배
mail | post = 우편물
ev charging | electric car | electric vehicle | charger = 전기차 충전기
floor = 층
address | location | office location = 위치 주소
# onboarding
new hire | new hires | join | joining | new employee = 입사자 입사
first day = 첫날 첫 출근일
first week = 첫 주
paperwork | documents to submit = 서류
mentor | buddy = 멘토
probation | probationary = 수습
orientation = 오리엔테이션
welcome kit = 웰컴 키트
# conduct
harassment | bullying | bully = 괴롭힘
sexual harassment = 성희롱
anonymous | anonymously = 익명
retaliation = 보복
gift | gifts = 선물
vendor | supplier | client | business partner = 거래처 협력사
conflict of interest = 이해 충돌
side job | side business | second job | moonlighting | on the side = 겸업
youtube | blog = 유튜브 블로그
social media = SNS
stock | shares | insider trading = 주식
discipline | disciplinary | punishment = 징계
# leaving
resign | resignation | quit | quitting | leave the company | leaving the company = 퇴사 사직서
notice period = 30일 전
handover | hand over = 인수인계
return | give back = 반납
last day | last working day = 마지막 근무일
severance | retirement pay | pension = 퇴직금 퇴직연금
experience letter | employment verification = 경력증명서
exit interview = 퇴사 면담
# everyday questions
proof of employment | employment certificate | certificate of employment = 재직증명서
business card | business cards = 명함
lost and found = 분실물
umbrella = 우산
company anniversary | founding day | anniversary = 창립기념일
event | events = 행사
injured | injury | hurt | accident = 산업재해 다치다
org chart | organization chart = 조직도
# contacts
phone number | contact number | extension | contact | call = 연락처 전화 내선
email address = 메일
main number = 대표
building management = 관리사무소
# people and teams
manager | team lead | boss = 팀장
director | division head = 본부장
hr | human resources = 인사팀
finance | accounting = 재무팀
general affairs = 총무팀
company = 회사
monthly | per month | a month = 월
yearly | per year | a year | annual | annually = 연간
weekly | per week | a week = 주
# --- everyday, colloquial and abbreviated wording, document by document ---
# leave policy: leave requests, half days, carry-over, sick leave, family events, civic leave
morning off | morning half day | half day in the morning = 오전 반차
afternoon off | afternoon half day | half day in the afternoon = 오후 반차
two hours off | couple of hours off | quarter day off = 반반차
leave balance | vacation balance | pto balance | days left | how many days left = 남은 연차 나의 휴가
request leave | apply for leave | leave request | book leave | book a day off | take a day off = 휴가 신청
week off | long vacation | extended vacation | consecutive days | in a row = 이어서 연차 2주 전
last minute leave | same day leave | emergency leave | short notice leave = 당일 사후 등록
absent | absence | unauthorized absence | awol = 결근 사후 등록
use up leave | use up my leave | leave usage = 연차 사용 촉진
vacation payout | leave payout | cash out leave | payout = 연차수당
hospitalised | surgery | medical leave | admitted to the hospital | in the hospital = 병가 질병 휴직
unpaid leave | unpaid sick leave | leave of absence = 무급 휴직
obituary | death notice | condolences | mourning = 부고 문자 사망 경조사
wedding invitation = 청첩장 결혼
in-laws | in law | father-in-law | mother-in-law | parents-in-law = 배우자 부모
maternal grandmother | maternal grandfather | maternal grandparents = 외조부모 조부모
reservist | reserve army | army reserve | civil defense | civil defence = 예비군 민방위 훈련 공가
summons | subpoena | witness = 법원 출석 요구서 공가
refresh = 리프레시 휴가
# parental leave: pregnancy, birth, childcare leave
mat leave | maternity benefit = 출산전후휴가
prenatal | antenatal | prenatal checkup | ultrasound | ob-gyn | obgyn = 태아 검진 임신
expected delivery | expected due date | baby is due = 출산 예정일
gave birth | giving birth | had a baby | having a baby = 출산 출생
wife gave birth | wife is giving birth | wife had a baby | partner gave birth = 배우자 출산휴가
childcare | child care = 육아
elementary school | primary school | school age = 초등학교 자녀
back from leave | returning from leave | reinstatement = 복직 복귀
parental leave pay | parental leave benefit | employment insurance = 고용보험 육아휴직 급여
both parents = 부모 모두 육아휴직
fertility treatment | iui | egg freezing = 난임 치료 휴가
# working hours: schedule, flex time, overtime pay, attendance records
9 to 6 | nine to six | standard hours | regular hours | normal hours = 기본 근무 시간
40 hours | 40 hour week | hours per week | weekly hours = 소정 근로시간 주 40시간
52 | 52 hours | 52 hour | 52-hour = 연장근무 주 52시간
ot pay | ot hours | ot allowance = 초과근무 수당
overtime request | overtime approval | approve overtime = 초과근무 신청 사전
time and a half = 통상시급 150
double time = 휴일근무 200
night premium | night shift allowance | night differential = 야간근무 수당
substitute holiday | day in lieu | holiday in lieu | replacement day off = 대체휴일 보상휴가
forgot to clock in | forgot to clock out | missed punch | missing record | forgot to badge = 근태 수정 요청 출퇴근 기록
badge in | tap in | tag in = 출입카드 태그 출퇴근 기록
field work | client site | working outside the office = 외근 출퇴근 기록
staggered hours | staggered commute | flexible start | start time options = 시차출퇴근제 출근 시각
change my start time | change start time | change my schedule = 근무 유형 변경 시차출퇴근제
leave on time | go home on time = 퇴근 기본 근무 시간
come in on the weekend | office on the weekend | weekend access = 주말 출입 신청 휴일근무
# remote work
hybrid | hybrid work = 재택근무
wfh days | remote days = 재택근무 주 2일
how many days a week | how many days per week | days a week | days per week = 주
wfh today | same day wfh | last minute wfh = 당일 재택근무
work from anywhere | work abroad | working abroad | remote from abroad = 해외 원격 근무
vpn = 한빛커넥트 VPN
video call | video meeting | video conference | zoom | google meet | webcam = 화상 회의 카메라
virtual background | zoom background = 배경 이미지
hotspot | mobile hotspot | tethering = 휴대폰 테더링 공용 와이파이
electricity | electric bill | power bill = 전기료 재택근무 지원금
furniture | desk chair | office chair | standing desk = 가구 의자 책상
home monitor | monitor at home | monitor for home = 모니터 빌리다
workation center | yangyang | aewol = 워케이션 양양 애월
# expenses
expense report | expense claim | claim expenses | file expenses | submit expenses = 경비 정산 요청
own money | personal money | out of my own pocket | paid myself = 개인 돈 정산
late night meal | overtime meal | overtime dinner | dinner allowance = 야근 식대
taxi home | late night taxi | ride home | cab home = 야근 택시비
kakao t | kakao taxi | kakaot = 카카오T 비즈니스 계정
alcohol | beer | soju | wine | liquor | booze = 주류
speeding ticket | parking ticket | traffic ticket | traffic fine | parking fine = 과태료 벌금 교통 위반
lost receipt | lost my receipt | lost the receipt | no receipt | missing receipt | without a receipt = 영수증 잃어버리다 결제 내역 사유서
cash receipt = 현금영수증 지출증빙용
card slip | card receipt | sales slip = 매출전표
original receipt | paper receipt | paper original = 원본 종이 보관
bank transfer | wire transfer = 계좌 이체
double claim | claimed twice | duplicate claim | double dipping = 이중 청구
stationery | pens = 소모품 사무용품
client dinner | client lunch | customer dinner | business dinner | business meal = 고객 접대비
team outing | team party | company dinner | hoesik = 회식 팀 운영비
reimbursement date | reimbursement day | when do i get reimbursed = 지급일 15일 급여 계좌
# corporate card
corp card | corporate credit card | team card = 법인카드 팀
individual card | assigned card | personal corporate card = 개인 지정 카드
apply for a card | card application | get a company card = 법인카드 발급 신청
monthly limit | card limit | credit limit = 한도 월
raise the limit | increase the limit | limit increase | higher limit | temporary increase = 한도 늘리다 일시적
pre-approval | preapproval | prior approval = 사전승인 본부장
bar | bars | nightclub | night club | karaoke | noraebang | hostess bar | room salon | pub = 유흥주점 단란주점
sauna | spa | jjimjilbang = 사우나
card loan = 카드론
atm | cash withdrawal | withdraw cash = 현금서비스
card misuse | misused the card | clawback | claw back = 환수 회수
card statement | card history | card transactions = 법인카드 내역 제출
attendees | who attended | participants = 참석자
card suspended | card blocked | card stopped = 카드 사용 멈추다
card declined | payment declined = 해외 사용 등록 거절
foreign transaction fee | overseas fee | fx fee | conversion fee = 해외 결제 수수료 환전
lost card | lost my card | stolen card | card stolen = 카드사 분실 신고 정지
reissue | reissued | new card = 재발급
# business travel
travel request | trip request | trip approval = 출장 신청 승인
day trip | same day trip | same-day trip = 당일 출장
bullet train | high speed rail | high-speed train | rail | railway = KTX SRT 기차표
train ticket | train tickets = 기차표
plane ticket | flight ticket | air ticket | plane tickets = 항공권
book a flight | flight booking | book flights = 여행사 온누리여행사 항공권
executive | executives = 임원
airport = 공항
airport taxi | taxi to the airport | taxi to airport = 공항 택시 심야 새벽
hotel limit | hotel budget | room rate | nightly rate | per night = 숙박비 한도
airbnb | motel | guesthouse = 숙박비
conference hotel | official hotel = 공식 호텔 학회
meal allowance | meal subsidy = 식대
daily expenses | per day allowance = 일비
local transport | local transportation = 현지 교통비
sim card | esim | local sim | data plan | data roaming = 로밍 현지 데이터 요금
visa fee | passport photo = 비자 발급 여권 사진
travel insurance = 여행자 보험
currency | foreign currency | currency exchange | exchange money = 외화 환전 환율
usa | america | europe | european = 미국 유럽
trip expenses | travel expenses | travel reimbursement | travel claim = 출장 정산
jeju = 제주
seoul = 서울
# payroll
salary statement | earnings statement | wage statement = 급여 명세서
base salary | base pay | basic salary | basic pay = 기본급
non-taxable | nontaxable | tax-free | tax free | tax exempt = 비과세
position allowance | role allowance | manager allowance | team lead allowance = 직책 수당
remote work allowance | wfh allowance | wfh stipend = 재택근무 지원금
change bank account | change my bank account | update bank account | new bank account = 급여 계좌 변경 계좌 관리
tax refund = 연말정산 환급
owe tax | additional tax | extra tax | pay more tax = 추가 납부
deduction | deductions | tax deduction | tax credit = 공제
claim dependents | dependent deduction | dependents deduction | family deduction = 부양가족 공제
mortgage | housing loan | housing fund = 주택자금 공제
hometax | simplified data = 연말정산 간소화 자료
proof of income | income certificate | withholding receipt = 원천징수영수증 근로소득
salary certificate | pay certificate = 급여 증명서
first paycheck | first salary | first pay = 첫 급여
mid month | mid-month | joined mid month = 중도 입사 날짜 비례
salary contract | contract renewal | salary negotiation = 연봉 계약서
# benefits
welfare mall | benefits mall | benefit mall | points mall | online mall = 복지몰 한빛몰
unused points | points expire | points expiring = 포인트 사라지다
contract worker | contract employee | contractor | temporary employee = 계약직
full-time employee | permanent employee | regular employee = 정규직
annual physical | physical exam | physical checkup | medical exam | check up = 건강검진 종합건강검진
spouse checkup | spouse health check | wife checkup | husband checkup = 배우자 검진
hospital | hospitals = 병원
wedding money | baby gift | funeral money | bereavement money = 경조금
flowers | wreath | funeral wreath = 화환 조화
scholarship | college tuition | kids tuition = 학자금 등록금
semester = 학기
pyeongchang | gangwon = 평창 강원 콘도
peak season | high season = 성수기 추첨
lottery | raffle = 추첨
years of service | tenure | service award | loyalty award | work anniversary = 장기근속 포상 근속
plaque = 감사패
club fee | club funding | club budget | hobby club = 동호회 활동비
hiking club | mountain hiking | futsal | soccer | board games | running club = 등산 풋살 보드게임 러닝 동호회
group insurance | accident insurance | medical insurance = 단체 보험 상해 질병
health insurance = 건강보험 보험
medical bill | medical bills | hospital bill | medical expenses | insurance claim = 병원비 보험사 청구
# training budget
self-development | self development | education allowance | training allowance | learning stipend = 교육비 한도
online class | online classes | e-learning | elearning | udemy | coursera | inflearn = 온라인 강좌 구독
external course | external training | outside course = 외부 강의 교육비
exam fee | test fee | certification fee | certification exam = 자격증 응시료
certification bonus | passing bonus = 취득 축하금 자격증
aws | cka | kubernetes = 자격증 취득 축하금
toeic | toefl | opic | ielts | foreign language | japanese | chinese = 어학 외국어 학습
ebook | e-book | kindle = 전자책
book purchase | buying books | book budget | book allowance = 도서 구입
donate books | donate book = 기증 사내 서가
conference ticket | conference fee | registration fee = 컨퍼런스 참가비
overseas conference | international conference | conference abroad = 해외 컨퍼런스
give a talk | speak at a conference | speaking at a conference = 발표자
knowledge sharing | sharing session | tech talk = 공유 세션 세미나
graduate school | grad school | master's degree | masters | mba | phd = 대학원 등록금
hobby | hobbies = 취미 강좌
certificate of completion | completion certificate | course certificate = 수료증
attendance rate = 출석률
legal training | statutory training | annual training = 법정 의무교육
sexual harassment training | harassment training | harassment prevention = 성희롱 예방 교육
privacy training | data protection training = 개인정보보호 교육
safety training | health and safety = 산업안전보건 교육
disability awareness | disability training = 장애인 인식 개선 교육
security training | security awareness = 정보보안 교육
lms | learning portal = 한빛러닝
# performance review and promotion
mid-year review | midyear review | first half review | h1 review = 상반기 평가
year-end review | annual review | second half review | h2 review = 하반기 평가
review cycle | review season | evaluation period = 평가 주기
interim review | midpoint check | mid-term check = 중간 점검 면담
one on one | 1 on 1 | 1on1 | feedback meeting = 면담 피드백
kpi | kpis | key results | targets = 목표 측정 기준
weighting | goal weight | goal weights = 가중치
goal setting | set goals | goal-setting = 목표 설정 목표 등록
self-evaluation | self evaluation | self-appraisal = 자기 평가
360 feedback | 360 review | 360-degree = 동료 평가
calibration | calibrate = 본부 조정 등급 분포
bell curve | forced ranking | forced distribution | quota = 등급 분포 비율
top rating | highest rating | top grade | low rating | bad rating = 평가 등급
merit increase | pay raise | salary raise = 연봉 인상률
performance bonus | incentive | incentives | year-end bonus = 성과급
promotion criteria | promotion requirements | eligible for promotion | promotion review = 승진 심사 최소 연수
fast track | early promotion | special promotion = 특별 승진
# security
password rules | password policy | password requirements | password length | strong password = 비밀번호 규칙 특수문자
special character | special characters | uppercase | capital letter = 특수문자 대문자
change password | change my password | password change | password expiry | password expires = 비밀번호 규칙 바꾸다
same password | reuse password | old password = 같은 비밀번호
share password | share my password | sharing passwords = 비밀번호 공유
password manager | 1password | save passwords | saved passwords | browser password = 비밀번호 관리자 1Password 브라우저
otp app | authenticator app | google authenticator | microsoft authenticator | google otp = OTP 앱 Authenticator
sms | text message | sms verification = 문자 인증
new phone | changed phone | change phone | changed my phone | got a new phone = 휴대폰 바꾸다 OTP 한빛가드
gitlab | cloud console | repository | repo = 소스 저장소 GitLab 클라우드 콘솔
security level | data level | information classification = 자료 등급
public information = 공개 등급
customer data | customer information | client data | personal data | personal information | pii = 고객 정보 개인정보
source code = 소스 코드
gmail | naver | personal email | private email = 외부 메일 개인 클라우드
google drive | dropbox | icloud | onedrive | personal cloud | cloud storage = 개인 클라우드
hard drive | external hard drive | portable drive | memory stick | sd card = USB 이동식 저장장치
file transfer | send files | large file | large files | share files externally | external sharing = 한빛쉐어 보안 파일 전송
copilot | claude | gemini | llm | chatbot | chat gpt | gpt = 생성형 AI
ai assistant | company ai | internal ai = 한빛 AI 어시스턴트
ai generated code | ai code | code from ai = 외부 AI 코드 라이선스
lock computer | lock my computer | lock laptop | step away | away from desk | away from my desk = 화면 잠금 자리 비우다
clean desk | clear desk = 클린 데스크
shred | shredder | shredding = 파쇄함 출력물
hack | hacked | hacking | hacker | compromised | security breach = 보안 사고 유출
spam | spam mail | fake email | strange email | weird email | voice phishing = 피싱 메일
phishing drill | phishing test | phishing simulation | fake phishing = 모의 피싱 훈련
clicked a link | clicked the link | clicked on a link = 링크 누르다 피싱
infected | infection = 악성코드 감염
security hotline | security emergency = 보안 관제 핫라인
# devices
mac | apple laptop | macbook pro = MacBook 노트북
pc = 노트북
software engineer | software engineers | engineers | dev team = 개발 직군
designer | designers | design team = 디자인 직군
dual monitor | dual monitors | second monitor | two monitors | extra monitor | another monitor = 모니터 추가 2대
keyboard | mouse | mechanical keyboard | ergonomic mouse = 키보드 마우스 경비
peripherals | accessories = 모니터 추가 주변기기
replacement cycle | refresh cycle | laptop refresh | laptop lifecycle = 교체 주기
early replacement | replace early = 조기 교체 사유서
data migration | move my files | transfer my data = 자료 옮기다
old laptop | previous laptop = 예전 노트북 폐기
admin | admin access | admin privileges | local admin | sudo = 관리자 권한
antivirus | security agent | dlp | endpoint security = 보안 에이전트 백신
os update | system update | windows update | software update | patch = 운영체제 업데이트 재부팅
reboot | restart | forced restart = 재부팅
dropped my laptop | dropped the laptop | spilled | water damage | cracked screen | broken screen = 파손 수리 과실
negligence | on purpose | intentional = 고의 과실 본인 부담
loaner | loaner laptop | spare laptop | temporary laptop = 대여용 노트북
tablet | ipad = 태블릿
mdm | mobile device management = 한빛가드 MDM 모바일 기기 관리
email on my phone | email on phone | mail on phone = 개인 휴대폰 업무 메일 한빛가드
personal photos | my photos = 개인 사진 메시지 한빛가드
phone allowance | phone stipend | mobile bill = 통신비 회사 휴대폰
company equipment | company asset | company assets | test equipment = 자산 장비 반출증
gate pass = 반출증 총무팀
# IT helpdesk
support ticket | it ticket | helpdesk ticket | it request | open a ticket = IT 요청 게시판
sla | response time | turnaround = 처리 목표 시간
outage | system down | server down | email down | service down | it emergency = 긴급 장애 서비스 중단 불통
on call | on-call | duty phone = 당직 긴급
helpdesk hours | support hours | it hours = 운영 시간 평일
can't log in | cannot log in | can't login | cannot login | unable to log in | login failed | wrong password = 계정 잠금 비밀번호 틀리다
password reset | reset password | reset my password = 비밀번호 재설정 초기화
photo id | identification | government id = 신분증
software center | app store | self service = 소프트웨어 센터
install request | software request | request software = 설치 요청
licence | licensing = 라이선스
paid software | paid app | paid license | buy software | purchase software = 유료 프로그램 팀 예산
pirated | piracy | illegal software | cracked software | pirated software = 불법 복제
wifi password | wi-fi password | wifi network | ssid = 와이파이 HANBIT-CORP
guest wifi | guest network | visitor wifi | guest wi-fi = HANBIT-GUEST 방문객 접속 코드
wifi on my phone | phone wifi | mobile wifi = HANBIT-MOBILE 한빛가드
toner | paper jam | out of paper | printer paper | printer broken = 용지 토너 복합기 고장
secure print | pull printing | print release = 보안 출력 출입카드
black and white | monochrome | grayscale = 흑백 컬러 출력
copier | multifunction printer | scanner = 복합기
remote desktop | teamviewer | anydesk | screen sharing | remote access | remote control = 원격 지원 접속
# office facilities
big meeting room | large meeting room | boardroom | auditorium = 대회의실
book a room | room booking | room reservation = 회의실 예약
recurring booking | recurring meeting | weekly booking = 반복 예약
no show | no-show | auto cancel | cancelled booking = 체크인 예약 자동 취소
parking pass | parking permit | monthly parking | parking spot | parking space | parking lottery = 정기 주차권 추첨
parking fee | parking cost = 주차 요금 주차비
visitor parking | guest parking | client parking = 방문객 차량 번호 무료
charging station | ev charger | tesla = 전기차 충전기
front desk | reception | lobby | information desk = 안내데스크 로비
forgot my badge | forgot badge | left my badge | temporary badge | temp badge = 임시 카드 안내데스크 출입카드
lost badge | lost my badge | lost access card | badge replacement = 출입카드 재발급 정지
tailgating | piggybacking | let someone in = 뒤따라 들어오다 출입카드 빌려주다
building hours | building access | after hours access | night access = 출입 신청
coffee | beverage | beverages | employee discount = 카페테리아 음료 할인
massage | massage chair = 안마의자 휴게실
snack | snacks | pantry = 간식 휴게실
nap | naps | napping | sleep pod = 수면실
locker | lockers = 사물함
parcel locker | package locker | delivery box = 택배 보관함
courier | shipping | send a package | fedex | dhl = 업무용 택배 해외 발송 총무팀
registered mail | certified mail = 등기 우편물
headquarters | hq | head office | main office = 본사
seongsu | seongdong = 성수이로 성동구 본사
executive floor | executive office = 임원실
# onboarding
onboarding = 온보딩 신규 입사자
before joining | before my first day | before starting | pre-boarding = 입사 전 준비 서류
resident registration | certificate of residence = 주민등록등본
bankbook | bank book | copy of bankbook = 통장 사본
diploma | graduation certificate | degree certificate = 졸업증명서
id photo | headshot | profile photo | profile picture = 증명사진 프로필
family certificate | family relation certificate | family relationship certificate = 가족관계증명서
temporary password | initial password | first login = 임시 비밀번호 첫 로그인
swag | welcome package | welcome gift | hoodie | mug = 웰컴 키트
mentor lunch | mentoring lunch | lunch with mentor | lunch with my mentor = 멘토링 점심 식사비
30 60 90 | 30-60-90 | 90 day check | 90-day check = 점검 면담 적응
probation extension | extend probation | extended probation | probation review = 수습 평가 연장
probation pay | salary during probation | pay during probation = 수습 급여
# code of conduct
code of conduct | ethics | ethical = 윤리 행동 강령
workplace harassment | power harassment | abusive boss | toxic boss = 직장 내 괴롭힘
verbal abuse | yelling | yelled at | shouting | insult | insults | swearing = 폭언 괴롭힘
excluded | left out | ostracized | isolated = 따돌림 업무 배제
personal errands | errands = 사적인 심부름 강요
whistleblower | whistleblowing | ethics hotline | tip-off | speak up = 신고 익명 한빛 클린 센터
investigation | investigate = 조사
bribe | bribery | kickback | kickbacks = 선물 현금 상품권
holiday gift | holiday gifts | chuseok | seollal | lunar new year = 명절 선물
vendor dinner | vendor paid | client treat = 거래처 식사
golf outing | golf with a client | golf with clients = 골프 접대
family member | family members | family business | cousin = 가족 친척 이해 충돌
freelance | freelancing | part-time job | gig | own business = 겸업 개인 사업
youtuber | youtube channel | blogger | monetize = 유튜브 블로그 수익 겸업
instagram | facebook | twitter | tiktok | linkedin = SNS 소셜 미디어
office photo | office photos | whiteboard = 사무실 내부 사진 화이트보드
merger | mergers | acquisition | acquisitions = 인수합병
insider information | non-public | unpublished results = 미공개 정보 실적
journalist | journalists | press inquiry | media inquiry | the press = 언론 취재 홍보팀
reprimand | written warning = 견책 징계
pay cut | salary cut | salary reduction = 감봉 징계
suspension | suspended without pay = 정직 징계
fired | dismissal | dismissed | termination | terminated | let go = 해고 징계
disciplinary committee | disciplinary hearing = 징계위원회 소명
disciplinary appeal | appeal a discipline | reconsideration = 재심 청구 징계
# offboarding
resignation letter | resignation form | submit resignation = 사직서 제출
give notice | two weeks notice | how much notice | notice before quitting = 30일 전 퇴사일
leaving date | resignation date | end date = 퇴사일
handover document | handover doc | transition doc | knowledge transfer = 인수인계서
successor | my replacement = 후임자 인수인계
personal files | take my files | copy my files | keep my files = 개인 자료 가져가다 보안팀 승인
locker key = 사물함 열쇠 반납
return laptop | return my laptop | return equipment | give back laptop = 반납 노트북 IT 데스크
final paycheck | final pay | last paycheck | last salary = 마지막 급여
retirement fund | retirement account | 401k | irp | dc plan | defined contribution = 퇴직연금 IRP 적립금
account deactivation | accounts closed | lose access = 계정 비활성화
email forwarding | forward my email = 자동 전달 메일
career certificate | reference letter | proof of experience | work history = 경력증명서
former employee | ex-employee | after leaving = 퇴직자 퇴사 후
exit survey | exit meeting | leaving interview = 퇴사 면담
non-compete | non compete | noncompete | non-solicitation | non solicitation = 서약서 영업
# FAQ and everyday office life
english certificate | certificate in english | english version = 영문 재직증명서
company seal | official stamp | signed original | wet signature = 직인 원본 서명
change my name | name change | change address | change of address | moved house | new address | update my address = 개인정보 변경 주소
emergency contact | emergency contacts = 비상 연락처
workplace injury | injured at work | hurt at work | work injury | workers comp | workers compensation | industrial accident = 산업재해 산재
name card | name cards = 명함
lost item | lost property | found an item | found something = 분실 물 안내데스크 보관
borrow a book | borrow books | library | bookshelf | company library = 라운지 사내 서가 책 빌리다
company holiday | office closed | office closure = 휴무일 창립기념일
year-end party | end of year party | year end party | christmas party | holiday party = 송년회
new year ceremony | kickoff | kick-off = 행사
family day | family event | bring my family = 가족 초청
town hall | townhall | all hands | all-hands = 타운홀 미팅
messenger | chat app | slack | kakaotalk = 한빛톡 메신저
wiki | confluence | notion = 한빛위키
team calendar | shared calendar | calendar = 팀 캘린더 한빛위키
# contacts and teams
switchboard | main line = 대표 전화
call from outside | calling from outside | outside line = 외부 내선
person in charge | who is in charge | who handles | point of contact = 담당
audit | audit team | compliance team = 감사팀
pr team | public relations | communications team = 홍보팀
security team = 보안팀
ga team | facilities team | admin team = 총무팀
payroll team | payroll = 급여 재무팀
building office | property management | facility management = 관리사무소
"""

KO_KO = """
# everyday words -> the words the documents use
일주일 | 한 주 = 주
월급 | 봉급 | 페이 | 월급날 = 급여
월급날 = 급여일
통장 = 계좌
휴가 = 연차
쉬다 = 휴가 연차
아프다 | 몸살 | 감기 | 독감 | 입원 = 병가
와이프 | 아내 | 남편 = 배우자
애 | 아이 | 아기 | 애기 | 자식 = 자녀 출산
할머니 | 할아버지 | 외할머니 | 외할아버지 = 조부모
엄마 | 아빠 | 어머니 | 아버지 = 부모
돌아가시다 | 장례 | 장례식 = 사망
결혼식 = 결혼
집 = 재택근무
재택 = 재택근무
야근 = 초과근무
출퇴근 | 출근 시간 = 시차출퇴근제 출근
호텔 | 숙소 = 숙박비
자차 | 기름값 | 주유비 = 본인 차량 주행 거리
비행기 = 항공
책 = 도서
시험 = 응시료 자격증
컴퓨터 | 피시 | PC = 노트북
폰 | 핸드폰 | 스마트폰 = 휴대폰
잃어버리다 = 분실
깜빡 | 까먹다 | 잊어버리다 = 잊다
툴 | 앱 = 프로그램 소프트웨어
깔다 = 설치
손님 = 방문객
공짜 = 무료
챗GPT | 챗지피티 | GPT = 생성형 AI ChatGPT
그만두다 | 관두다 | 퇴직 = 퇴사
등록금 = 학자금
심부름 | 갑질 | 폭언 | 따돌림 = 괴롭힘
전화번호 = 연락처 내선
회사 카드 = 법인카드
영어 공부 = 어학
# --- slang, abbreviations and paraphrases, document by document ---
# Kiwi splits some informal words differently depending on what follows them ("법카" is
# 법 + 카 alone but 법카 in "법카예요"; "칼퇴" is 칼퇴 or 칼 + 퇴), so such words are listed a
# second time in the spelling or with the ending that gives the other split.
# 휴가 규정: 연차, 반차, 이월, 병가, 경조사, 공가
월차 | 연가 | 오프 = 연차 휴가
연차휴가 = 연차 휴가
오전반차 = 오전 반차
오후반차 = 오후 반차
연차 내다 | 연차 올리다 | 휴가 내다 | 휴가 올리다 = 휴가 신청
여름휴가 | 여름휴가가 | 장기 휴가 | 긴 휴가 = 이어서 연차 2주 전
당일 휴가 | 당일 연차 = 당일 사후 등록
무단결근 = 결근 사후 등록
연차 넘기다 | 연차 넘어가다 | 연차 넘어가면 | 이월되다 = 이월 미사용
연차 소진 | 연차 털기 | 연차 털다 = 연차 사용 촉진
연차비 | 연차 비 | 연차 수당 | 연차 보상 | 연차 정산 = 연차수당
병결 | 병 결 | 병휴 | 장염 | 수술 | 코로나 = 병가
의사 소견서 | 병원 진단서 | 진료확인서 = 진단서 소견서
무급휴가 | 무급 휴가 | 무급휴직 = 무급 병가 질병 휴직
조퇴 = 반반차 퇴근 직전
지각 = 출근 직후 반반차
부친상 | 모친상 | 부모상 = 부모 사망
빙모상 | 장인상 | 시부상 | 시부상은 | 시모상 = 배우자 부모 사망
조부상 | 조부상은 | 조부 상 | 조모상 | 외조부상 | 외조부상이 | 외조모상 | 외조모상은 = 조부모 외조부모 사망
장인 | 장모 | 장인어른 | 장모님 | 시아버지 | 시어머니 | 시부모 | 처가 | 시댁 = 배우자 부모
누나 | 언니 | 오빠 | 남동생 | 여동생 | 동생 = 형제자매
조문 | 초상 | 상 당하다 = 사망 경조사 부고
축의금 | 부조금 | 조의금 | 부의금 | 경조사비 = 경조금
신혼여행 | 신혼 여행 | 허니문 = 결혼 휴가
동원훈련 | 향토예비군 | 민방위 훈련 = 예비군 민방위 훈련 공가
재판 | 증인 | 소환장 | 배심원 = 법원 출석 공가
안식휴가 | 안식년 | 근속휴가 | 근속 휴가 = 리프레시 휴가
# 출산·육아 지원: 임신, 출산휴가, 육아휴직, 단축 근무
육휴 | 육휴로 | 육아 휴직 = 육아휴직
출산휴가 | 출산 휴가 | 산휴 | 산휴를 | 산전후휴가 | 산후휴가 | 출산 전후 휴가 = 출산전후휴가
배우자 출산휴가 | 배우자출산휴가 | 아빠 출산휴가 | 남편 출산휴가 | 아빠 휴가 = 배우자 출산휴가
와이프 출산 | 아내 출산 | 와이프 출산휴가 | 아내 출산휴가 = 배우자 출산휴가
임산부 | 임신부 = 임신
산전검사 | 산부인과 | 임신 검진 | 초음파 = 태아 검진 임신
단축근무 | 근무시간 단축 = 근로시간 단축
육아 단축 | 육아기 단축 = 육아기 근로시간 단축
임신기 단축 | 임신 단축 = 임신기 근로시간 단축
세쌍둥이 = 쌍둥이 다태아
시험관 | 인공수정 | 인공 수정 | 난임 시술 | 불임 = 난임 치료 휴가
어린이집 | 유치원 | 초등학생 = 초등학교 자녀
육아휴직 급여 | 육휴 급여 | 육아휴직 수당 = 고용보험 육아휴직 급여
출생신고 = 출생 증명서 가족 관계
예정일 = 출산 예정일
# 근무 시간과 초과근무
칼퇴 | 칼 퇴 | 칼퇴근 | 정시퇴근 | 정시 퇴근 = 퇴근 기본 근무 시간
퇴근시간 | 퇴근 시간 = 퇴근 기본 근무 시간 시차출퇴근제
업무시간 | 업무 시간 = 근무 시간
유연근무 | 유연근무제 | 유연출퇴근 | 탄력근무 | 탄력근무제 | 자율출퇴근 | 시차출근 | 시차 출퇴근 | 플렉스 = 시차출퇴근제
코어타임 | 코어타임에서 | 코어 타임 | 집중근무시간 | 집중 근무 시간 = 핵심 근무 시간
점심 시간 | 밥시간 | 점심 먹는 시간 = 점심시간
잔업 | 연장근로 | 시간외근무 | 시간외 근무 | 오버타임 = 연장근무 초과근무
야근수당 | 야근 수당 | 연장수당 | 시간외수당 | 초과수당 | 오티 수당 = 초과근무 수당 연장근무
철야 | 밤샘 | 밤새다 | 밤새면 | 밤새고 | 야간 작업 | 새벽 근무 | 심야 근무 = 야간근무
특근 | 주말출근 | 주말 출근 | 주말 근무 | 휴일출근 | 휴일 출근 | 공휴일 근무 = 휴일근무 주말
대휴 | 대체휴무 | 대체 휴무 | 대체휴가 = 대체휴일 보상휴가
보상 휴가 = 보상휴가
출근 누락 | 퇴근 누락 | 출퇴근 누락 | 근태 누락 | 근태 수정 = 근태 수정 요청 출퇴근 기록
출근 체크 | 출근 찍다 | 퇴근 찍다 | 출근 도장 = 출퇴근 기록 출입카드 태그
외부 미팅 | 현장 근무 = 외근 출퇴근 기록
# 재택근무와 워케이션
리모트 | 원격근무 | 원격 근무 | 홈오피스 | 재택 근무 = 재택근무
재택수당 | 재택 수당 | 재택비 | 재택비예요 | 재택 지원금 | 재택근무 수당 = 재택근무 지원금 통신비 전기료
당일 재택 = 당일 재택근무
해외 재택 | 해외에서 일하다 | 외국에서 일하다 = 해외 원격 근무
워크케이션 | 워크케이션에서 | 워크 케이션 = 워케이션
화상회의 | 화상 미팅 | 줌 회의 | 구글 미트 | 팀즈 | 웹캠 | 웹 캠 = 화상 회의 카메라
핫스팟 = 휴대폰 테더링
카페에서 일하다 | 커피숍 | 스타벅스 | 스벅 = 카페 공용 와이파이
의자 지원 | 책상 지원 | 모션데스크 | 사무용 의자 | 가구 지원 = 의자 책상 가구
집 모니터 | 재택 모니터 | 모니터 대여 = 모니터 빌리다 IT 헬프데스크
브이피엔 | 브이 피엔 = VPN 한빛커넥트
# 경비 정산
경비 처리 | 경비처리 | 비용 처리 | 비용처리 | 영수증 처리 | 돈 돌려받다 = 경비 정산
사비 | 사 비 | 개인 카드 = 개인 돈 정산
밥값 | 밥 값 = 식대 식사
야근 밥 | 야근 저녁 | 야식 | 야식비 | 저녁값 | 저녁 식대 | 저녁 식대로 = 야근 식대
야근 택시 | 심야 택시 | 택시 귀가 | 택시 귀가는 | 퇴근 택시 = 야근 택시비 카카오T
카카오택시 | 카카오 택시 | 카택 = 카카오T 비즈니스
고객 밥 | 거래처 밥 | 고객 식사 | 고객 미팅 식사 | 거래처 미팅 식사 = 고객 접대비
회식 | 팀 회식 | 팀회식 | 회식비 = 회식 팀 운영비
수기 영수증 | 수기영수증 | 수기영수증하다 | 손글씨 영수증 | 간이 영수증 = 간이영수증
카드 영수증 | 카드전표 | 카드 전표 = 매출전표
현금 영수증 = 현금영수증 지출증빙용
세금 계산서 = 세금계산서
영수증 분실 | 영수증 잃어버리다 = 결제 내역 사유서 영수증
주차 딱지 | 주차딱지 | 딱지 | 속도위반 | 신호위반 | 범칙금 = 과태료 벌금 교통 위반
술값 | 술 | 맥주 | 소주 | 와인 | 술자리 = 주류
볼펜 | 비품 | 문구용품 = 소모품 사무용품
경비 입금 | 정산금 입금 | 정산 입금 | 경비 들어오다 = 지급일 급여 계좌
마감 | 마감일 = 기한
퇴짜 | 빠꾸 = 반려
이중청구 | 중복 청구 = 이중 청구
# 법인카드
법카 | 법카예요 | 법인 카드 | 회사카드 = 법인카드
팀카드 | 팀 카드 = 팀 법인카드
한도 증액 | 한도 상향 | 한도 올리다 = 한도 늘리다 일시적
사전 승인 | 사전결재 | 사전 결재 = 사전승인
유흥 | 룸살롱 | 노래방 | 노래주점 | 술집 | 유흥업소 = 유흥주점 단란주점
찜질방 | 목욕탕 | 스파 = 사우나
스크린골프 | 라운딩 | 골프 라운딩 = 골프장
기프트카드 | 문화상품권 | 백화점 상품권 | 모바일 상품권 | 쿠폰 | 깊티 = 상품권 기프티콘 선불카드
현금 인출 | 카드깡 = 현금서비스 카드론
개인 물건 | 개인 용도 | 사적 사용 = 개인 물품 구매
법카 내역 | 법카 정리 | 카드 정리 | 카드 정산 | 내역 정리 = 법인카드 내역 사용 목적 제출
카드 정지 | 카드 막히다 | 카드 먹통 = 카드 사용 멈추다 정지
해외결제 | 해외 결제 | 해외 카드 = 해외 사용 등록 수수료
카드 분실 | 카드 잃어버리다 | 카드 도난 | 법카 분실 = 카드사 분실 신고 정지
# 출장
출장비 | 출장 경비 = 출장 정산 일비 숙박비
일당 | 일당은 | 출장 수당 | 출장수당 | 출장 일당 = 일비
비행기표 | 비행기 표 | 항공편 | 항공 티켓 | 비행기 티켓 = 항공권
열차 | 케이티엑스 | 기차값 | 기찻값 = 기차표 KTX SRT
비즈니스 좌석 | 비즈니스 클래스 | 비지니스석 | 비즈석 = 비즈니스석
일반석 | 일반 석 | 이코노미 = 이코노미석 일반실
장거리 비행 | 좌석 업그레이드 = 비행 시간 프리미엄 이코노미
호텔비 | 숙소비 | 모텔 | 에어비앤비 | 게스트하우스 | 게스트 하우스 | 방값 = 숙박비 한도
자가용 | 개인 차 | 개인차량 | 유류비 | 주유 = 본인 차량 주행 거리
톨게이트 | 하이패스 | 고속도로 = 통행료
주차료 = 주차비 주차 요금
공항 택시 | 역까지 택시 = 공항 택시 짐 새벽 심야
당일치기 | 하루 출장 | 당일 왕복 = 당일 출장
외국 | 외국 출장 = 해외
결재 | 결재 올리다 = 신청 승인
데이터 로밍 | 유심 | 포켓와이파이 | 포켓 와이파이 = 로밍 현지 데이터 요금
여행자보험 | 출장 보험 | 여행 보험 = 여행자 보험
엔화 | 유로 | 외국 돈 = 외화 환전 환율
출장 보고 | 출장 결과 | 결과 보고서 = 출장 보고서
# 급여
급료 | 임금 | 월급여 = 급여
급여날 | 봉급날 | 페이데이 | 월급 들어오다 = 급여일
급여명세서 | 월급 명세서 | 월급명세서 | 급여 내역 | 월급 내역 = 급여 명세서
기본 월급 | 기본금 = 기본급
식대 지원 | 식비 지원 | 면세 = 식대 비과세
직책수당 | 팀장 수당 | 보직 수당 | 보직수당 = 직책 수당
월급 통장 | 급여 통장 | 급여통장 | 월급통장 | 통장 변경 | 계좌 바꾸다 = 급여 계좌 변경
연말 정산 = 연말정산 환급
토해내다 | 뱉어내다 | 세금 폭탄 | 세금 더 내다 = 추가 납부
소득공제 | 세액공제 | 의료비 공제 | 카드 공제 | 공제 서류 = 공제 연말정산
간소화 | 홈택스 | 국세청 = 연말정산 간소화 자료
부양 가족 | 인적공제 = 부양가족
전세자금 | 월세 공제 | 주택 대출 | 주택담보대출 = 주택자금 공제
원천징수 | 소득 증명 | 소득증명 | 소득금액증명원 | 근로소득 증명 = 원천징수영수증 근로소득
급여 증명 | 급여증명서 | 월급 증명 = 급여 증명서
입사 첫 급여 = 첫 급여
일할 계산 | 일할계산 = 날짜 비례
중간 입사 = 중도 입사 날짜 비례
연봉 협상 | 연봉협상 | 연봉 계약 | 연봉계약 = 연봉 계약서 인상률
연봉 오르다 | 월급 인상 | 월급 오르다 | 임금 인상 = 연봉 인상률
# 복리후생
복지포인트 | 복지포인트하다 | 복포 | 복지카드 | 복지비 | 복지 비 | 선택적 복지 = 복지 포인트 한빛몰
포인트몰 | 포인트 몰 = 복지몰 한빛몰
포인트 소멸 | 포인트 이월 = 포인트 사라지다 넘어가다
건강 검진 | 종합검진 | 종합 검진 | 내시경 | 위내시경 | 대장내시경 | 대장내시경은 | 정기검진 = 건강검진 종합건강검진
배우자 검진 | 와이프 검진 | 남편 검진 | 가족 검진 = 배우자 검진 비용
비정규직 | 파견직 | 계약 직원 = 계약직
대학 등록금 | 자녀 학비 | 대학 학비 | 학비 = 학자금 등록금 대학생
리조트 | 휴양시설 | 펜션 = 휴양소 콘도
근속 포상 | 근속 축하금 | 근속 보너스 | 장기근속 휴가비 = 장기근속 포상 휴가비 감사패
동아리 | 사내 모임 | 축구 | 러닝크루 | 러닝 크루 | 취미 모임 = 동호회 활동비
헬스장 | 헬스 | 필라테스 | 요가 | 피트니스 = 운동 복지 포인트
실손 | 실손보험 | 실비보험 | 단체보험 | 단체 보험 | 상해보험 | 상해 보험 = 단체 보험 병원비 보험사
보험 청구 | 보험금 청구 | 보험금 = 보험사 영수증 청구 단체 보험
# 교육비 지원
자기계발비 | 자기계발 | 자기 계발 | 교육 지원 | 교육비 지원 | 교육 지원금 | 교육 예산 = 교육비 한도
인강 | 인터넷 강의 | 온라인 강의 | 온라인 수업 | 유데미 | 인프런 | 패스트캠퍼스 = 온라인 강좌 구독
학원 | 외부 교육 | 외부 강좌 | 수강료 = 외부 강의 교육비
자격증 시험 | 시험비 | 응시비 | 응시 비 | 시험 응시 | 자격증 시험비 = 자격증 응시료
정처기 | 정처기예요 | 자격증 따다 | 자격증 취득 | 합격 축하금 | 자격증 수당 | 자격증 포상 = 취득 축하금 자격증
토익 | 토플 | 오픽 | 영어학원 | 영어 학원 | 영어회화 | 영어 회화 | 일본어 | 중국어 | 전화 영어 = 어학 외국어 전화영어
책값 | 책값이 | 책 구입 | 책 사다 | 도서비 | 도서 비 | 도서 구입비 = 도서 구입
이북 = 전자책
책 기증 | 책 기부 = 기증 사내 서가
콘퍼런스 | 포럼 | 개발자 컨퍼런스 = 컨퍼런스 참가비
연사 | 스피커 = 발표자
전파 교육 | 사내 공유 = 공유 세션 세미나
석사 | 박사 | 야간 대학원 | 특수대학원 = 대학원 등록금
이수증 | 수료 증명서 = 수료증 이수
법정교육 | 법정 교육 | 의무 교육 | 필수교육 = 법정 의무교육
성희롱 교육 | 성희롱예방교육 | 성교육 = 성희롱 예방 교육
개인정보 교육 | 정보보호 교육 = 개인정보보호 교육
안전 교육 | 안전교육 | 산업안전 교육 = 산업안전보건 교육
장애인 교육 | 장애인식 교육 = 장애인 인식 개선 교육
보안 교육 | 보안교육 = 정보보안 교육
사내 교육 사이트 | 온라인 교육 = 한빛러닝
# 성과 평가와 승진
인사고과 | 고과 | 인사 평가 | 인사평가 | 성과평가 = 성과 평가
중간 평가 | 중간평가 = 중간 점검 면담
연말 평가 | 연말평가 | 연간 평가 = 하반기 평가 성과급 연봉 인상률
목표 수립 | 목표 잡다 | 목표 세우다 | 성과 목표 = 목표 등록 설정
목표 수정 | 목표 바꾸다 | 목표 변경 = 목표 고치다
셀프 평가 | 본인 평가 | 자평 = 자기 평가
다면평가 | 다면 평가 | 동료평가 | 피어 리뷰 = 동료 평가 익명
상대평가 | 강제 배분 | 강제배분 | 등급 비율 = 등급 분포 비율
캘리브레이션 | 등급 조정 = 본부 조정 등급 분포
최고 등급 | 낮은 등급 = 평가 등급
보너스 | 인센티브 | 인센 | 상여금 | 연말 보너스 | 성과 보너스 = 성과급
인상률 | 연봉 인상폭 = 연봉 인상률
평가 이의 | 평가 불만 | 이의제기 | 이의 제기 | 평가 항의 = 이의 신청 평가위원회
진급 | 승급 | 승진 조건 | 승진 연차 = 승진 심사 최소 연수
특진 | 조기 승진 | 발탁 승진 = 특별 승진
대리 | 과장 | 차장 | 부장 | 주임 | 직급 체계 = 직급 사원 선임 책임 수석
승진 가산 | 승진 인상 = 승진 가산
원온원 | 일대일 면담 | 결과 면담 | 피드백 면담 = 결과 면담 피드백
# 정보보안
비번 | 패스워드 | 암호 = 비밀번호
비번 규칙 | 비밀번호 조건 | 비번 조건 | 비밀번호 길이 | 비밀번호 길이는 = 비밀번호 규칙 특수문자 대문자
비번 변경 | 비밀번호 변경 | 비밀 번호 변경 | 비번 바꾸다 | 비밀번호 바꾸다 | 비밀 번호 바꾸다 | 비번 만료 | 비밀번호 만료 | 비밀 번호 만료 = 비밀번호 규칙 바꾸다
비번 공유 | 계정 공유 = 비밀번호 공유
비밀번호 관리 | 비번 관리 | 비번 저장 | 비밀번호 저장 | 크롬 비번 | 원패스워드 = 비밀번호 관리자 1Password 브라우저
이중 인증 | 이중인증 | 투팩터 | 오티피 | 인증앱 | 인증 앱 | 구글 인증 = 2단계 인증 OTP 앱
폰 바꾸다 | 휴대폰 교체 | 핸드폰 바꾸다 | 휴대폰 바꾸다 | 기기 변경 | 기변 | 폰 교체 = 휴대폰 바꾸다 OTP 다시 등록 한빛가드
보안 등급 | 문서 등급 | 기밀 등급 | 자료 분류 | 문서 분류 = 자료 등급
기밀 | 기밀문서 | 기밀문서가 | 기밀 자료 | 사내 기밀 | 비밀 자료 = 대외비 극비
개인 메일 | 지메일 | 네이버 메일 | 구글 메일 | 사적 메일 = 외부 메일 개인 클라우드
구글 드라이브 | 드롭박스 | 네이버 클라우드 | 아이클라우드 | 원드라이브 | 클라우드 업로드 = 개인 클라우드
외장하드 | 외장 하드 | 유에스비 | 이동식 디스크 | 메모리 카드 = USB 이동식 저장장치
파일 전송 | 대용량 파일 | 대용량 첨부 | 파일 공유 | 외부 공유 = 한빛쉐어 보안 파일 전송
클로드 | 제미나이 | 제미나 이 | 제미니 | 코파일럿 | 뤼튼 | 인공지능 = 생성형 AI
사내 챗봇 | 사내챗봇 | 어시스턴트 = 한빛 AI 어시스턴트
화면 잠그다 | 화면보호기 | 화면 보호기 | 자리비움 | 자리 비우다 = 화면 잠금 자리 비우다
클린데스크 | 책상 정리 | 서류 방치 = 클린 데스크 출력물 잠금 서랍
파쇄 | 문서 파쇄 | 파쇄기 | 종이 버리다 = 파쇄함 출력물
해킹 | 해킹당하다 | 계정 도용 | 털리다 = 보안 사고 유출
스팸 | 스팸메일 | 이상한 메일 | 수상한 메일 | 가짜 메일 | 낚시 메일 | 스미싱 | 보이스피싱 = 피싱
바이러스 | 랜섬웨어 | 랜 섬웨어 | 멀웨어 | 멀웨어요 = 악성코드 감염
링크 클릭 | 링크 누르다 | 첨부파일 열다 | 잘못 클릭 = 피싱 링크 누르다
정보 유출 | 데이터 유출 | 기밀 유출 = 자료 유출 보안 사고
보안 신고 | 보안 핫라인 | 야간 보안 = 보안 관제 핫라인 보안 사고 신고
모의훈련 | 피싱 테스트 | 피싱 훈련 = 모의 피싱 훈련 보충 교육
# 업무용 기기
맥북 | 맥 | 맥북프로 | 맥북프로요 | 애플 = MacBook 노트북
윈도우 | 윈도 | 윈도우즈 = Windows 노트북
노트북 사양 | 노트북 종류 | 노트북 기종 | 노트북 고르다 = 노트북 지급 직군
듀얼 모니터 | 서브 모니터 | 모니터 추가 | 보조 모니터 = 모니터 디자인 개발 직군
기계식 키보드 | 무선 마우스 | 버티컬 마우스 | 인체공학 = 키보드 마우스 경비
노트북 바꾸다 | 노트북 연식 | 노트북 교체하다 = 교체 주기 조기 교체
노트북 느리다 | 컴퓨터 느리다 | 피시 느리다 | 렉 걸리다 | 버벅거리다 | 버벅거리면 | 느려지다 = 성능 조기 교체
관리자 계정 | 어드민 | 설치 권한 = 관리자 권한
백신 끄다 | 백신 삭제 | 보안 프로그램 끄다 | 보안 프로그램 삭제 = 백신 보안 에이전트 위반
윈도우 업데이트 | 강제 재부팅 | 자동 재부팅 | 보안 패치 = 운영체제 업데이트 재부팅
노트북 떨어뜨리다 | 액정 깨지다 | 화면 깨지다 | 커피 쏟다 | 물 쏟다 | 침수 | 노트북 고장 | 노트북 망가지다 | 노트북 깨지다 = 파손 수리 과실
임시 노트북 | 노트북 빌리다 | 대여 노트북 = 대여용 노트북
아이패드 | 갤탭 | 갤럭시탭 = 태블릿 개인 기기
개인폰 | 개인 폰 | 개인 핸드폰 = 개인 휴대폰 한빛가드
회사폰 | 회사 폰 | 업무폰 | 업무용 폰 | 법인폰 | 법인폰이 | 법인 폰 | 업무용 휴대폰 = 회사 휴대폰 통신비
폰 요금 | 휴대폰 요금 | 핸드폰 요금 | 핸드폰비 | 통신 요금 = 통신비 지원
회사 물건 | 회사 장비 | 장비 반출 | 회사 자산 = 반출 반출증 자산
노트북 가져가다 | 노트북 들고 가다 | 노트북 집에 = 노트북 가지고 나가다 반출
# IT 헬프데스크
전산실 | 전산팀 | 전산 | 헬프 데스크 | 아이티 = IT 헬프데스크
티켓 올리다 | 티켓 발행 | 요청 게시판 = IT 요청 게시판
처리 시간 | 처리 기간 | 대응 시간 = 처리 목표 시간
노트북 안 켜지다 | 컴퓨터 안 켜지다 | 먹통 = 노트북 켜지다 긴급
서버 다운 | 시스템 다운 | 메일 먹통 | 메일 장애 | 전산 장애 = 긴급 장애 서비스 중단 불통
야간 장애 | 주말 장애 | 새벽 장애 | 긴급 연락 = 당직 긴급 장애
계정 잠김 | 계정 잠기다 | 계정 락 | 로그인 실패 | 로그인 막히다 | 로그인 오류 | 비번 틀리다 | 비 번 틀리다 | 비밀번호 틀리다 = 계정 잠금 해제
비번 초기화 | 비밀번호 리셋 | 비번 리셋 | 비 번 리셋 | 비번 까먹다 | 비 번 까먹다 | 비번 잊어버리다 | 비번 잊어버리면 | 비 번 잊어버리다 | 비밀번호 까먹다 | 비번 분실 | 비번 찾기 | 비밀번호 찾기 | 비밀 번호 찾기 = 비밀번호 초기화 재설정
프로그램 깔다 | 앱 깔다 | 설치 신청 | 프로그램 요청 | 소프트웨어 요청 = 설치 요청 소프트웨어 센터
라이센스 | 라이센스 키 | 정품 인증 | 시리얼 = 라이선스
크랙 | 불법 프로그램 | 불법 소프트웨어 | 복제 프로그램 = 불법 복제
유료 프로그램 | 유료 소프트웨어 | 유료 툴 | 유료 앱 | 소프트웨어 구매 | 프로그램 구매 = 유료 프로그램 팀 예산
와이파이 비번 | 와이파이 비밀번호 | 와이파이 비밀 번호 | 와이파이 연결 | 인터넷 연결 | 무선랜 | 무선 인터넷 | 인터넷 = 와이파이 HANBIT-CORP
게스트 와이파이 | 방문객 와이파이 | 외부인 와이파이 = HANBIT-GUEST 방문객 접속 코드
폰 와이파이 | 휴대폰 와이파이 | 핸드폰 와이파이 = HANBIT-MOBILE 한빛가드 휴대폰
인터넷 요금 | 인터넷비 = 통신비
프린트 | 프린터기 | 복사기 | 스캐너 = 프린터 복합기 출력
인쇄 대기 | 출력 대기 | 보안 인쇄 = 보안 출력 출입카드
칼라 | 칼라 출력 | 컬러 인쇄 | 컬러 프린트 = 컬러 출력 흑백
잉크 | 프린터 종이 | 복사 용지 = 용지 토너 총무팀
원격 접속 | 원격 제어 | 팀뷰어 | 애니데스크 = 원격 지원 코드
# 사무실 시설
미팅룸 | 미팅 룸 | 회의 공간 | 회의실 잡다 | 회의실 빌리다 = 회의실 예약
큰 회의실 | 강당 | 세미나실 = 대회의실
노쇼 | 회의실 취소 | 예약 취소 = 체크인 예약 자동 취소
정기 예약 | 고정 예약 = 반복 예약
주차 자리 | 주차 공간 | 주차 신청 | 월주차 | 월 주차 | 주차 당첨 = 정기 주차권 추첨
방문 주차 | 손님 주차 | 방문객 주차 | 방문 차량 | 외부 차량 = 방문객 차량 번호 무료
테슬라 | 전기 차 | 전기차 충전 | 차 충전 = 전기차 충전기 지하
사원증 | 사원증요 | 출입증 | 카드키 | 카드 키 | 사원 카드 | 출입 카드 = 출입카드
사원증 분실 | 출입증 분실 | 사원증 잃어버리다 | 출입증 잃어버리다 = 출입카드 재발급 정지
사원증 두고 오다 | 출입증 두고 오다 | 출입카드 두고 오다 | 임시 출입증 = 임시 카드 안내데스크
꼬리물기 | 따라 들어오다 | 카드 빌려주다 = 뒤따라 들어오다 출입카드 빌려주다
야간 출입 | 새벽 출입 | 휴일 출입 | 주말 사무실 | 주말 회사 = 출입 신청 총무팀
구내식당 | 구내 식당 | 사내식당 | 사내 식당 | 직원식당 | 회사 식당 = 카페테리아
커피 | 커피 할인 | 음료 할인 | 사내 카페 = 카페테리아 음료 할인
안마 | 안마기 | 마사지 의자 | 마사지기 = 안마의자 휴게실
과자 | 스낵 | 탕비실 | 라면 = 간식 휴게실
낮잠 | 쪽잠 | 수면 공간 = 수면실
쉬는 곳 | 휴게 공간 | 휴게공간 | 쉼터 = 휴게실
택배함 | 무인 택배함 | 택배 비번 | 택배 비밀번호 | 택배 비밀 번호 | 택배 찾다 = 택배 보관함 문자
쿠팡 | 온라인 주문 | 인터넷 주문 = 개인 택배 회사 주소
등기 우편 | 등기우편 | 우편 | 편지 = 우편물 등기
택배 보내다 | 해외 배송 | 국제 택배 | 택배 발송 | 퀵 | 퀵서비스 = 업무용 택배 총무팀 해외 발송
본사 주소 | 회사 주소 | 회사 위치 | 사무실 위치 | 찾아오는 길 = 본사 성수 위치 주소
성수동 = 성수 성동구 본사
층수 = 층 안내
사장실 | 사장 실 | 대표실 | 대표 실 | 임원 사무실 = 임원실
락커 | 로커 = 사물함
# 신규 입사자 온보딩
신입 | 신입사원 | 뉴비 | 신규 직원 = 신규 입사자 온보딩
입사 첫날 = 첫날 첫 출근일
입사 서류 | 제출 서류 | 입사 준비물 | 준비물 | 서류 제출 = 입사 전 준비 서류
등본 = 주민등록등본
초본 = 주민등록초본 개인정보 변경
통장사본 = 통장 사본
졸업증명 | 졸업 증명서 | 졸업장 | 학위증명서 = 졸업증명서
증명 사진 | 사진 파일 | 프로필 사진 | 사원증 사진 = 증명사진 프로필
가족관계증명 | 가족관계 증명서 | 가족 관계 증명서 = 가족관계증명서
건보 피부양자 | 건강보험 등록 = 건강보험 피부양자
임시 비번 | 초기 비번 | 초기 비밀번호 | 초기 비밀번호에 | 계정 발급 = 임시 비밀번호 첫 로그인 계정
웰컴키트 | 웰컴 키트 | 입사 선물 | 입사 굿즈 | 굿즈 | 회사 굿즈 = 웰컴 키트
사수 | 버디 = 멘토
멘토 점심 | 멘토링 점심 | 멘토 밥 | 멘토 식사 = 멘토링 점심 식사비
수습사원 | 시용 기간 | 수습 연장 = 수습 평가 연장
수습 월급 | 수습 급여 = 수습 급여
적응 면담 | 입사 면담 | 온보딩 면담 = 점검 면담 본부장 면담
신입 교육 | 입사 교육 | 신규 입사자 교육 = 정보보안 교육 개인정보보호 교육 첫 주
오티 = 오리엔테이션
# 윤리 및 행동 강령
직장내 괴롭힘 | 직장내괴롭힘 | 직장 괴롭힘 | 상사 갑질 | 직장 갑질 | 태움 = 직장 내 괴롭힘
욕설 | 인격모독 | 모욕 | 고함 | 막말 | 소리 지르다 = 폭언 괴롭힘
왕따 | 투명인간 취급 = 따돌림
커피 심부름 | 개인 심부름 | 사적 심부름 | 사적인 부탁 = 사적인 심부름 강요
성추행 | 성적 농담 | 음담패설 | 성적 발언 | 신체 접촉 | 스킨십 = 성희롱
제보 | 내부고발 | 내부 고발 | 고발 | 윤리 신고 | 클린센터 | 익명 제보 | 신문고 = 신고 익명 한빛 클린 센터
보복 인사 | 뒤끝 = 보복 불이익
가해자 분리 | 자리 옮기다 | 피해자 보호 = 분리 근무 장소 피해자
뇌물 | 촌지 | 떡값 | 떡 값 | 리베이트 | 뒷돈 | 향응 = 선물 현금 접대
추석 | 설날 | 추석 선물 | 설 선물 | 설날 선물 | 명절 선물세트 = 명절 선물
선물 한도 | 선물 금액 = 선물 거래처
밥 얻어먹다 | 얻어먹다 | 얻어먹고 | 대접 받다 | 업체 접대 | 업체 식사 = 거래처 식사 접대
골프 접대 | 골프 치다 | 여행 접대 = 골프 여행 접대
친척 회사 | 가족 회사 | 친인척 | 지인 회사 | 가족 거래 = 가족 친척 이해 충돌
투잡 | 부업 | 알바 | 아르바이트 | 사이드 프로젝트 | 창업 | 프리랜서 = 겸업 개인 사업
유튜버 | 유튜브 채널 | 블로거 | 수익 창출 | 애드센스 | 인플루언서 = 유튜브 블로그 수익 겸업
인스타 | 인스타그램 | 페북 | 페이스북 | 트위터 | 틱톡 | 링크드인 | 소셜 미디어 | 소셜미디어 = SNS 소셜 미디어
사무실 사진 | 회사 사진 | 화이트보드 사진 = 사무실 내부 사진 SNS
자사주 | 우리사주 | 우리사주는 | 회사 주식 | 내부자 거래 | 내부자거래 | 주식 매매 = 주식 미공개 공시
기자 | 인터뷰 요청 | 언론 인터뷰 | 방송국 = 언론 취재 홍보팀
시말서 | 경위서 = 견책 징계
잘리다 | 짤리다 | 해고당하다 | 권고사직 = 해고 징계
월급 깎이다 | 감급 = 감봉 징계
징계위 | 인사위원회 | 인사위 | 징계 위원회 = 징계위원회 소명
징계 재심 | 징계 이의 = 재심 청구 징계
# 퇴사 절차
사표 | 사 표 | 사표 내다 | 퇴직서 | 사직 의사 | 퇴사 의사 | 이직 | 퇴사 신청 = 사직서 퇴사
퇴사 통보 | 퇴사 예고 | 퇴사 말하다 = 30일 전 희망 퇴사일
인계 | 업무 인계 | 인수 인계 | 인계서 = 인수인계 인수인계서
개인 파일 | 자료 챙기다 | 파일 가져가다 | 자료 가져가다 = 개인 자료 보안팀 승인
퇴사 연차 | 퇴사 때 연차 = 연차수당 마지막 급여 남은 연차
사원증 반납 | 장비 반납 | 회사 물건 반납 = 반납 물품 출입카드 노트북
마지막 월급 | 퇴사 월급 | 퇴사 달 월급 = 마지막 급여 날짜
퇴직금 계좌 | 퇴직금 입금 | 연금 계좌 | 개인형 퇴직연금 = 퇴직연금 IRP 적립금 계좌
계정 삭제 | 계정 비활성 | 계정 만료 = 계정 비활성화 마지막 근무일
메일 전달 | 메일 포워딩 | 메일 포 워딩 | 메일 자동 전달 = 자동 전달 업무 메일
경력 증명 | 경력증명 | 경력 증명서 = 경력증명서 퇴직자 증명서 발급
퇴직 증명 | 퇴직증명서 | 퇴사 증명 = 퇴직자 증명서 발급 경력증명서
퇴사 인터뷰 | 퇴직 면담 = 퇴사 면담
경업금지 | 경업 금지 | 전직 금지 | 고객 영업 = 서약서 영업 퇴사 후
# 자주 묻는 질문
재직 증명서 | 재직증명 | 재직 증명 = 재직증명서
영문 증명서 | 영어 증명서 | 영문 재직 = 영문 재직증명서
도장 | 회사 도장 | 원본 서명 = 직인 원본 서명
이사하다 | 전입신고 | 주소 이전 | 주소 변경 | 주소 바꾸다 | 이름 변경 | 이름 바꾸다 | 개명 = 개인정보 변경 주소
비상연락처 | 비상연락 처 | 비상 연락망 | 긴급 연락처 = 비상 연락처
부상 | 골절 | 넘어지다 | 회사에서 다치다 | 산재 신청 | 산재 처리 = 산업재해 산재
명함 주문 | 명함 만들다 | 명함 재발급 = 명함 신청 무료
습득물 | 주운 물건 | 물건 줍다 | 물건 잃어버리다 | 지갑 = 분실 물 안내데스크 보관
책 빌리다 | 사내 도서관 | 도서관 | 책장 = 라운지 사내 서가 책 빌리다
회사 생일 | 창립일 | 창사기념일 | 창사 기념일 = 창립기념일 휴무일
회사 쉬는 날 | 회사 휴일 | 회사 공휴일 = 휴무일 창립기념일
연말 파티 | 종무식 | 종 무식 | 연말 행사 | 망년회 = 송년회
신년회 | 새해 행사 = 행사
가족 행사 | 가족 초대 | 패밀리데이 | 패밀리 데이 = 가족 초청
타운 홀 | 전사 미팅 | 전체 회의 | 전사 회의 | 올핸즈 = 타운홀 미팅 경영 현황
슬랙 | 카톡 | 사내 채팅 | 사내톡 = 한빛톡 메신저
위키 | 사내 위키 | 사내 위 키 | 노션 = 한빛위키
팀 일정 | 팀 달력 | 공유 캘린더 | 구글 캘린더 = 팀 캘린더 일정표 한빛위키
그룹웨어 | 인트라넷 | 전자결재 = 한빛포털
직원 연락처 | 동료 번호 | 직원 검색 | 사람 찾기 | 부서 번호 = 한빛위키 조직도 내선 연락처
# 부서별 연락처
대표번호 | 대표 번호 | 회사 번호 | 회사 전화번호 = 대표 전화
내선번호 | 사내 번호 = 내선 번호
외부에서 전화 | 밖에서 전화 | 직통 번호 | 직통 = 외부 내선 번호
문의처 | 담당 부서 = 담당 연락처 부서
감사실 | 감사 실 | 윤리경영 | 감사 부서 = 감사팀 윤리
홍보실 | 홍보 부서 | 대외협력 = 홍보팀
총무부 | 총무 부 | 경영지원 | 경영지원팀 | 시설팀 | 시설 담당 = 총무팀
인사부 | 인사과 | 인사 과 | 피플팀 | 인사 담당 = 인사팀
재무부 | 경리 | 경리팀 | 회계팀 | 경리부 = 재무팀
정보보안팀 | 보안 부서 | 보안 담당자 = 보안팀 정보보안 책임자
관리실 | 관리 실 | 건물 관리 | 관리 사무소 | 빌딩 관리 = 관리사무소
"""


@dataclass(frozen=True)
class Concept:
    """One idea of a query: the word(s) it was written with and their glossary terms."""

    written: tuple[str, ...]
    """Search tokens of the words in the query."""
    alternatives: frozenset[str]
    """All tokens that count as this idea being present (written tokens included)."""


Table = dict[tuple[str, ...], tuple[str, ...]]
"""Phrase (as tokens) -> Korean search tokens it adds."""


def _parse(text: str, key_tokens: Callable[[str], tuple[str, ...]]) -> Table:
    table: Table = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        left, _, right = line.partition("=")
        expansion = tuple(dict.fromkeys(tokens(right)))
        for phrase in left.split("|"):
            key = key_tokens(phrase.strip())
            if key:
                table[key] = tuple(dict.fromkeys(table.get(key, ()) + expansion))
    return table


def _english_key(phrase: str) -> tuple[str, ...]:
    return tuple(stem_english(w) for w in re.findall(r"[a-z0-9]+", phrase.lower()))


def _korean_key(phrase: str) -> tuple[str, ...]:
    return tuple(tokens(phrase))


@lru_cache(maxsize=1)
def _glossary() -> tuple[Table, Table]:
    """Both tables, parsed (and their Korean tokenized) on first use."""
    return _parse(EN_KO, _english_key), _parse(KO_KO, _korean_key)


def _matches(sequence: list[str], table: Table) -> list[tuple[int, int, tuple[str, ...]]]:
    """Longest non-overlapping glossary phrases in `sequence`: (start, end, expansion)."""
    longest = max((len(k) for k in table), default=0)
    found: list[tuple[int, int, tuple[str, ...]]] = []
    i = 0
    while i < len(sequence):
        for size in range(min(longest, len(sequence) - i), 0, -1):
            expansion = table.get(tuple(sequence[i : i + size]))
            if expansion is not None:
                found.append((i, i + size, expansion))
                i += size
                break
        else:
            i += 1
    return found


def concepts(query: str) -> list[Concept]:
    """The query as concepts: each written word with the glossary terms for it.

    Args:
        query: The user's question, Korean, English or mixed.

    Returns:
        One concept per content word or glossary phrase of the query, in order. A phrase
        ("work from home") becomes one concept whose alternatives are its own tokens plus
        the Korean terms ("재택", "근무"); other words are concepts of their own.
    """
    en_table, ko_table = _glossary()
    query_tokens = tokens(query)
    groups: list[tuple[set[str], set[str]]] = []  # (written, alternatives)
    claimed: set[str] = set()

    raw_words = [stem_english(w) for w in re.findall(r"[a-z0-9]+", query.lower())]
    for start, end, expansion in _matches(raw_words, en_table):
        written = {w for w in raw_words[start:end] if w in query_tokens}
        groups.append((written, written | set(expansion)))
        claimed |= written
    hangul_tokens = [t for t in query_tokens if not t.isascii()]
    for start, end, expansion in _matches(hangul_tokens, ko_table):
        written = set(hangul_tokens[start:end])
        groups.append((written, written | set(expansion)))
        claimed |= written

    out: list[Concept] = []
    for token in dict.fromkeys(query_tokens):
        if token not in claimed:
            out.append(Concept((token,), frozenset({token})))
    for written, alternatives in groups:
        out.append(Concept(tuple(sorted(written)), frozenset(alternatives)))
    return out


def expand(query: str, ideas: list[Concept] | None = None) -> str:
    """The query followed by the glossary terms of its words (for lexical embeddings).

    `ideas`: the query's `concepts`, when the caller has them already.
    """
    ideas = concepts(query) if ideas is None else ideas
    extra = [t for c in ideas for t in sorted(c.alternatives - set(c.written))]
    return f"{query} {' '.join(extra)}" if extra else query


expand_query = expand
"""The name the index uses."""
