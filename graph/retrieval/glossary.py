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


def expand(query: str) -> str:
    """The query followed by the glossary terms of its words (for lexical embeddings)."""
    extra = [t for c in concepts(query) for t in sorted(c.alternatives - set(c.written))]
    return f"{query} {' '.join(extra)}" if extra else query


expand_query = expand
"""The name the index uses."""
