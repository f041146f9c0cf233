"""Build the long-conversation recall benchmark data (deterministic, no clock).

Writes, next to this script:
  recall_transcript.json  {"turns": [{"user", "assistant", "time"}, ...]}  (320 turns)
  recall_questions.json   {"questions", "answers", "kinds", "fact_turns", "updated"}

Facts are written by hand in FACTS below; everything else is filler built from
templates with randomized slots (fixed seed). The script asserts every
requirement at the end and exits non-zero if one fails.

Run:  cd /work/main && uv run python bench/data/make_recall_data.py
"""

from __future__ import annotations

import json
import random
import re
import string
import sys
import unicodedata
from collections import Counter
from datetime import date, datetime, timedelta, timezone
from itertools import pairwise
from pathlib import Path

SEED = 20260303
N_TURNS = 320
KO_SHARE = 0.6
OUT_DIR = Path(__file__).resolve().parent
KST = timezone(timedelta(hours=9))

# ---------------------------------------------------------------------------
# Facts (hand-written). turn = 1-based turn of the latest statement.
# Updated facts also carry old_value / old_statement / old_ack / old_turn.
# ---------------------------------------------------------------------------

FACTS: list[dict] = [
    # ----- turns 1-30 -----
    dict(
        lang="ko",
        kind="preference",
        turn=5,
        value="평양냉면",
        statement="점심 메뉴 고민하다가 생각났는데, 저는 여름이든 겨울이든 평양냉면이면 무조건 좋아요. "
        "다음 주 팀 점심 장소 고를 때 참고해 주시고, 회사 근처에 괜찮은 데 있으면 알려 주세요.",
        ack="좋아하시는 메뉴로 기억해 둘게요. 회사 근처라면 육수가 슴슴한 노포 스타일 가게와 최근에 생긴 깔끔한 "
        "체인점 중에서 고르실 수 있을 텐데, 팀원 중에 면 요리를 싫어하는 분이 있는지 먼저 확인해 보세요. "
        "인원이 많으면 12시 전에 도착하는 게 대기 줄을 피하는 가장 확실한 방법이에요.",
        question="제가 제일 좋아한다고 했던 음식이 뭐였죠?",
    ),
    dict(
        lang="en",
        kind="date",
        turn=8,
        value="March 20",
        statement="I finally decided to submit a talk to that developer conference. The proposal deadline is "
        "March 20, so I have about two weeks to write an abstract that doesn't sound like marketing copy.",
        ack="That's a workable amount of time if you start with the outline rather than the abstract itself. "
        "Try writing three bullet points on what attendees will be able to do after your talk, then build the "
        "abstract around them. I'm happy to review a draft whenever you have one.",
        question="By when did I have to send in my talk submission?",
    ),
    dict(
        lang="en",
        kind="place",
        turn=12,
        value="Tallinn",
        statement="Quick bit of context for later: the conference is in Tallinn this year, and I've never been "
        "there. Do you know if the weather is already cold in early autumn?",
        ack="Early autumn in the Baltics is usually cool and damp, with daytime temperatures around 10 to 15°C, "
        "so a light waterproof jacket and layers are a safe bet. Days are still reasonably long in September "
        "but shorten quickly in October. Comfortable shoes help too, since old towns in that region tend to "
        "have cobblestone streets.",
        question="Which city is hosting the event I'm hoping to speak at?",
    ),
    dict(
        lang="ko",
        kind="name",
        turn=15,
        value="한소율",
        statement="어제 스케일링 받으러 갔는데, 제 치과 주치의는 한소율 원장님이에요. 잇몸이 좀 부었다고 "
        "치실을 꼭 쓰라고 하시더라고요. 치실이랑 치간칫솔 중에 뭐가 나을까요?",
        ack="담당 선생님 말씀대로 지금은 잇몸 관리가 우선이니 좋은 습관이 될 거예요. 치아 사이가 좁은 편이면 "
        "치실이, 틈이 넓거나 보철물이 있으면 치간칫솔이 더 효과적입니다. 처음 며칠은 피가 조금 날 수 있지만 "
        "꾸준히 하면 보통 1~2주 안에 줄어들어요.",
        question="제 이를 봐주시는 선생님 성함이 어떻게 되셨죠?",
    ),
    dict(
        lang="en",
        kind="number",
        turn=18,
        value="HX-4418",
        statement="The facilities form wants my employee ID, which is HX-4418, plus a reason for the badge "
        "replacement. Can you help me phrase the reason so it doesn't sound like I was careless?",
        ack='Sure. Something like "The magnetic strip on my current badge no longer reads reliably at the '
        "entrance gates, so I'd like to request a replacement\" keeps it factual and neutral. If the card was "
        'actually lost, a short "misplaced during my commute, no misuse suspected" is also fine and is '
        "usually processed quickly.",
        question="What's my staff identification code again?",
    ),
    dict(
        lang="ko",
        kind="date",
        turn=75,
        value="4월 23일",
        statement="아 그리고 워크숍 말인데요, 대표님 해외 출장이랑 겹쳐서 4월 23일로 밀렸어요. "
        "장소 예약도 다시 확인해야 할 것 같아요.",
        ack="바뀐 일정으로 기록해 둘게요. 장소 측에 날짜 변경을 요청할 때는 위약금 규정과 변경 가능 기한을 먼저 "
        "확인하시고, 참석자들에게는 캘린더 초대를 새로 보내는 게 혼선이 적습니다. 식사나 버스 같은 부대 예약도 "
        "함께 옮겨야 하는지 체크해 보세요.",
        question="우리 팀 워크숍은 최종적으로 언제 하기로 했었죠?",
        old_turn=20,
        old_value="4월 9일",
        old_statement="이번 분기 팀 워크숍 날짜가 4월 9일로 잡혔어요. 장소는 아직 미정이라 팀장님이 "
        "후보지를 두세 군데 추려 달라고 하셨어요.",
        old_ack="일정이 정해졌으니 준비를 시작하기 좋겠네요. 후보지는 이동 시간 1시간 이내, 20명 이상 수용 가능한 "
        "세미나실, 식사 제공 여부를 기준으로 비교하면 정리하기 쉽습니다. 원하시면 비교표 양식을 만들어 드릴게요.",
    ),
    dict(
        lang="en",
        kind="name",
        turn=120,
        value="Olivia Brandt",
        statement="Small change on the leadership program: my original mentor moved to the Singapore office, "
        "so they reassigned me to Olivia Brandt from the platform org. I'm meeting her Thursday and want to "
        "restart with better goals.",
        ack="A reassignment is actually a good moment to reset. Write down what worked and what didn't in the "
        "first few sessions, and share two specific goals for the next quarter, for example handling a "
        "difficult stakeholder or running a planning meeting. Ask her early about her own path, since that "
        "builds rapport quickly.",
        question="Who is my current coach in that management development scheme?",
        old_turn=25,
        old_value="Marcus Chen",
        old_statement="The leadership program paired me with a mentor, Marcus Chen, who runs the payments group. "
        "Our first chat is next week and I have no idea what to bring.",
        old_ack="A mentor from a different group is a great setup, since they can give you an outside view. For "
        "the first conversation, bring two or three concrete situations you struggled with recently and one "
        "longer-term question about your career. Ask how they prefer to meet and how often, so expectations "
        "are clear from the start.",
    ),
    dict(
        lang="ko",
        kind="preference",
        turn=190,
        value="클라이밍",
        statement="손목 때문에 라켓 운동은 접었고, 요즘은 클라이밍에 푹 빠졌어요. 일주일에 세 번 암장에 가는데 "
        "팔 힘이 확실히 늘었어요.",
        ack="손목에 무리가 덜 가는 쪽으로 잘 바꾸셨네요. 다만 손가락과 전완에 부하가 많이 걸리니 주 3회라면 하루는 "
        "가볍게 지구력 위주로 하시고, 운동 후 손가락 스트레칭을 꼭 챙기세요. 실내 암장 회원권은 10회권보다 월 "
        "정기권이 보통 더 저렴합니다.",
        question="요즘 제가 몸 쓰는 취미로 뭘 한다고 했었죠?",
        old_turn=28,
        old_value="테니스",
        old_statement="요즘 퇴근하고 테니스 레슨을 받는데 생각보다 재밌어요. 주 2회 하는데 손목이 좀 "
        "뻐근하네요. 운동 전후 스트레칭 추천해 주실래요?",
        old_ack="새로 운동을 시작하면 처음 몇 주는 손목과 팔꿈치에 부담이 오기 쉬워요. 운동 전에는 손목 돌리기와 "
        "전완근 스트레칭을 30초씩, 운동 후에는 손바닥을 벽에 대고 팔을 펴는 스트레칭을 해 보세요. 통증이 일주일 "
        "넘게 가면 그립 사이즈나 자세를 코치에게 점검받는 게 좋습니다.",
    ),
    dict(
        lang="en",
        kind="preference",
        turn=27,
        value="aisle seat",
        statement="I'm booking flights for the trip this fall. I always take an aisle seat because I get up a "
        "lot on long flights and hate climbing over people, so keep that in mind. What should I check before "
        "paying?",
        ack="Noted for future bookings. Before paying, check the baggage allowance, whether seat selection costs "
        "extra on your fare class, the layover length (90 minutes or more is safer for international "
        "connections), and the change and refund rules. It's also worth confirming that the name matches your "
        "passport exactly.",
        question="Where on a plane do I like to sit?",
    ),
    # ----- turns 31-100 -----
    dict(
        lang="ko",
        kind="amount",
        turn=140,
        value="2,350만원",
        statement="재무팀이랑 다시 얘기해서 상반기 캠페인 예산이 2,350만원으로 늘었어요. 늘어난 만큼 인플루언서 "
        "협업을 추가해 볼까 해요.",
        ack="늘어난 금액으로 반영해 둘게요. 인플루언서 협업은 팔로워 수보다 참여율과 타깃 적합도를 먼저 보시고, "
        "계약서에 게시 기간과 2차 활용 범위를 명시하는 게 중요합니다. 성과를 따로 측정할 수 있게 전용 할인 "
        "코드나 UTM 링크를 발급해 두세요.",
        question="상반기 홍보 쪽에 최종적으로 쓸 수 있게 된 돈이 얼마였죠?",
        old_turn=35,
        old_value="1,800만원",
        old_statement="상반기 마케팅 캠페인 예산이 1,800만원으로 확정됐어요. 온라인 광고랑 오프라인 행사에 "
        "어떻게 나누면 좋을지 같이 고민해 주세요.",
        old_ack="첫 캠페인이라면 온라인 광고에 60%, 오프라인 행사에 30%, 나머지 10%는 예비비로 두는 구성이 "
        "무난합니다. 온라인은 2주 단위로 성과를 보고 채널별 배분을 조정하시고, 오프라인 행사는 대관료 비중이 "
        "크니 견적부터 받아 보세요.",
    ),
    dict(
        lang="en",
        kind="place",
        turn=105,
        value="Blue Heron Grill",
        statement="Update on the client dinner: the Italian place lost our booking, so we're going to Blue Heron "
        "Grill instead. It's a bit farther, so I'll probably order two taxis.",
        ack="Good that you found an alternative quickly. I'd confirm the reservation by phone the day before, "
        "ask for a quieter table since it's a business dinner, and book the taxis for about 20 minutes before "
        "the reservation. It may also be worth asking whether they can print a simple menu with the client's "
        "company name.",
        question="Where did we end up taking the Meridian people to eat?",
        old_turn=40,
        old_value="Tavola Rossa",
        old_statement="We're taking the Meridian clients out next Thursday, and my boss booked Tavola Rossa near "
        "the office. Should I send them the address in advance or just meet them in the lobby?",
        old_ack="Meeting in the lobby and walking over together is friendlier, but sending the address and a "
        "map pin as a backup avoids confusion if anyone comes separately. Mention the reservation name in the "
        "message, and ask about dietary restrictions a few days ahead so the kitchen can prepare.",
    ),
    dict(
        lang="en",
        kind="date",
        turn=45,
        value="September 27",
        statement="My sister just set her wedding date: September 27, in her fiancé's hometown. I'm supposed to "
        "give a short toast, which terrifies me more than any work presentation.",
        ack="Congratulations to her! A good toast is usually under three minutes: one short story that shows who "
        "she is, one line about the couple together, and a warm closing with a raised glass. Write it out, "
        "read it aloud a few times, then reduce it to a few cue words so it sounds natural.",
        question="When is my sister getting married?",
    ),
    dict(
        lang="en",
        kind="name",
        turn=50,
        value="Juniper",
        statement="Our dog Juniper has been scratching her ears all week. The vet can only see her on Saturday; "
        "is there anything I should do until then?",
        ack="Ear scratching in dogs is often caused by a yeast or bacterial infection, allergies, or sometimes "
        "mites. Until the visit, keep the ears dry, avoid cleaning deep inside with cotton swabs, and note any "
        "smell, redness or discharge so you can describe it. If she starts tilting her head or seems off "
        "balance, call the clinic sooner.",
        question="What's my dog called?",
    ),
    dict(
        lang="ko",
        kind="place",
        turn=145,
        value="거제도",
        statement="휴가지 바꿨어요. 동해안은 너무 붐빈다고 해서 이번엔 거제도로 가요. 배 타는 일정도 하나 "
        "넣으려고요.",
        ack="남해안 쪽은 섬 투어가 잘 되어 있어서 아이들이 좋아할 거예요. 배편은 날씨에 따라 결항이 잦으니 일정 "
        "중간에 예비일을 두시고, 멀미약은 출항 30분 전에 먹이는 게 좋습니다. 성수기 숙소는 일찍 마감되니 이번 주 "
        "안에 예약하시길 권해요.",
        question="여름에 가족들이랑 어디로 놀러 가기로 결정했었죠?",
        old_turn=55,
        old_value="강릉",
        old_statement="올여름 가족 휴가는 강릉으로 가기로 했어요. 애들이 바다를 보고 싶대서요. 숙소는 바닷가 "
        "근처가 좋을까요, 시내가 좋을까요?",
        old_ack="아이들과 함께라면 해변까지 걸어갈 수 있는 숙소가 훨씬 편합니다. 다만 성수기에는 바닷가 숙소 가격이 "
        "많이 오르니 지금쯤 예약하시는 게 좋고, 시내는 식당 선택지가 많다는 장점이 있어요. 차를 가져가신다면 "
        "주차 가능 여부도 꼭 확인하세요.",
    ),
    dict(
        lang="ko",
        kind="amount",
        turn=60,
        value="3억 2천만원",
        statement="이사 갈 집을 드디어 찾았어요. 전세 보증금은 3억 2천만원인데 지금 집보다 꽤 올라서 대출을 좀 "
        "더 받아야 할 것 같아요. 뭘 먼저 알아봐야 할까요?",
        ack="먼저 기존 전세자금대출을 새 집으로 옮기면서 한도를 늘릴 수 있는지, 금리는 어떻게 되는지 확인하세요. "
        "계약 전에는 등기부등본으로 선순위 채권이 있는지 꼭 보시고, 잔금일에 전입신고와 확정일자를 바로 받으셔야 "
        "보증금이 보호됩니다. 전세보증보험 가입 가능 여부도 함께 검토하시면 안전해요.",
        question="새 집 계약할 때 맡기는 돈이 총 얼마라고 했었죠?",
    ),
    dict(
        lang="en",
        kind="preference",
        turn=235,
        value="pescatarian",
        statement="My doctor said my iron levels are low, so I've started eating fish again. I'm pescatarian "
        "now, which makes work dinners a lot easier.",
        ack="That does open up a lot of options, especially at Korean and Japanese restaurants. Fish like "
        "salmon, mackerel and sardines also add omega-3s, and pairing iron-rich foods with vitamin C helps "
        "absorption. Do follow up with a blood test in a few months to see whether the change is enough.",
        question="What kind of diet am I following these days?",
        old_turn=65,
        old_value="vegetarian",
        old_statement="I've been vegetarian for about a year now, so team dinners can be tricky. Any tips for "
        "Korean restaurants where most menus are meat-heavy?",
        old_ack="Korean food has good options if you know what to ask for: bibimbap without meat, tofu stews "
        "made with vegetable broth, japchae without beef, and temple-food style restaurants. It helps to say "
        "you don't eat meat or meat-based broth, since anchovy or beef stock is common even in vegetable "
        "dishes.",
    ),
    dict(
        lang="en",
        kind="amount",
        turn=170,
        value="$41,200",
        statement="Negotiation win: the analytics renewal came down to $41,200 after we dropped two unused "
        "modules. Procurement still needs a one-paragraph justification from me.",
        ack="Nice result. For the justification, state the business need the platform serves, the savings "
        "compared with the original offer, and why switching vendors now would cost more in migration effort. "
        "Keep it short and factual; procurement mostly wants to see that alternatives were considered.",
        question="What did the yearly contract with our metrics provider end up costing?",
        old_turn=70,
        old_value="$48,500",
        old_statement="The analytics vendor sent their renewal quote: $48,500 for the year, which is more than we "
        "paid last time. I need to push back but stay on good terms.",
        old_ack="A polite but firm approach works well: thank them, note that the increase exceeds your budget "
        "growth, and ask what drove it. Then propose options like a multi-year term, fewer seats, or removing "
        "modules you don't use. Even a rough competing quote strengthens your position.",
    ),
    dict(
        lang="ko",
        kind="place",
        turn=78,
        value="대구 수성구",
        statement="주말에 부모님 댁에 다녀오려고요. 부모님은 대구 수성구에 사시는데, KTX 말고 차로 가면 몇 "
        "시간쯤 걸릴까요?",
        ack="서울에서 차로 가시면 막히지 않을 때 3시간 40분 안팎, 주말 오전에 출발하면 4시간 반 이상 걸릴 수 "
        "있어요. KTX는 2시간 정도라 피로도를 생각하면 기차가 편하고, 도착해서 차가 필요하시면 역에서 렌터카를 "
        "빌리는 방법도 있습니다.",
        question="저희 부모님 댁이 어느 동네에 있다고 했죠?",
    ),
    dict(
        lang="ko",
        kind="number",
        turn=85,
        value="C-214",
        statement="회사 헬스장 사물함을 새로 배정받았어요. 번호는 C-214인데, 자물쇠 비밀번호를 자꾸 잊어버려서 "
        "큰일이에요. 비밀번호 관리 요령이 있을까요?",
        ack="비밀번호는 휴대폰 메모에 엉뚱한 제목으로 저장해 두거나, 비밀번호 관리 앱의 보안 메모 기능을 쓰는 게 "
        "안전합니다. 생일처럼 추측하기 쉬운 숫자는 피하시고, 자주 쓰는 네 자리 숫자에 규칙을 하나 더해 외우는 "
        "방법도 있어요.",
        question="회사 운동 시설에서 제가 쓰는 보관함이 몇 번이었죠?",
    ),
    dict(
        lang="ko",
        kind="name",
        turn=88,
        value="오태석",
        statement="집주인 오태석 씨가 다음 달에 보일러를 교체해 준대요. 공사하는 날 집에 누가 있어야 한다는데 "
        "재택 가능한 날로 잡으면 되겠죠?",
        ack="재택하시는 날로 잡으면 딱 좋겠네요. 교체 작업은 보통 반나절 정도 걸리고 그동안 온수가 안 나오니 "
        "샤워는 미리 해 두시는 게 좋아요. 설치가 끝나면 시운전을 같이 보고, 보증 기간과 A/S 연락처를 받아 두세요.",
        question="지금 사는 집 주인분 이름이 뭐였더라?",
    ),
    dict(
        lang="en",
        kind="amount",
        turn=95,
        value="$2,150",
        statement="My personal laptop is dying, so I've set a budget of $2,150 for a replacement, tax included. "
        "I mostly do photo editing and some light coding.",
        ack="That covers a solid machine for those tasks. For photo editing, prioritize a color-accurate display "
        "(full sRGB or better, ideally DCI-P3 coverage), at least 16GB of RAM, preferably 32GB, and a 1TB SSD. "
        "If you can wait for a seasonal sale, discounts of 10 to 15% are common.",
        question="How much was I willing to spend on a new computer?",
    ),
    dict(
        lang="ko",
        kind="name",
        turn=215,
        value="서하린",
        statement="결제 시스템 프로젝트 담당 PM이 바뀌었어요. 앞으로는 서하린 님이 맡으신대요. 인수인계가 잘 "
        "됐는지 좀 걱정이에요.",
        ack="담당자가 바뀌는 시점에는 결정 사항과 미해결 이슈를 한 문서로 정리해서 새 담당자와 함께 훑어보는 게 "
        "가장 확실합니다. 첫 주에 짧게 1:1을 잡아 우선순위가 그대로인지 확인하시고, 이전 담당자에게도 궁금한 점을 "
        "물을 수 있는 창구를 열어 두세요.",
        question="결제 쪽 신규 프로젝트는 지금 누가 총괄하고 있죠?",
        old_turn=100,
        old_value="배준영",
        old_statement="새 결제 시스템 프로젝트 PM은 배준영 님이 맡으셨어요. 킥오프 전에 제가 뭘 준비해 가면 "
        "좋을까요?",
        old_ack="킥오프 전에는 현재 시스템의 문제점 목록, 우리 팀이 맡을 범위에 대한 이해, 일정상 걱정되는 부분을 "
        "정리해 가시면 좋습니다. 의사결정 방식과 보고 주기를 초반에 물어보면 이후 협업이 훨씬 수월해져요.",
    ),
    # ----- turns 101-200 -----
    dict(
        lang="en",
        kind="date",
        turn=160,
        value="May 6",
        statement="The embassy emailed to reschedule my visa interview; it's now May 6, same time of day. At "
        "least that gives me more time to get the employment letter signed.",
        ack="Good to have a bit more breathing room. Ask HR for the letter on company letterhead with your "
        "title, salary, start date and approved leave dates, signed by your manager or HR. Double-check that "
        "you print the new confirmation page, since the old one won't be accepted.",
        question="What's the current date of my consular appointment?",
        old_turn=110,
        old_value="April 29",
        old_statement="The embassy gave me a visa interview slot on April 29 at 8:30 in the morning. What "
        "documents do people usually forget?",
        old_ack="The most commonly forgotten items are the appointment confirmation page, a printed copy of the "
        "application form, and proof of ties to home like an employment letter. Bring a photo that meets the "
        "exact specifications, and arrive early, since security lines can be long.",
    ),
    dict(
        lang="en",
        kind="preference",
        turn=115,
        value="forest green",
        statement="I'm ordering a case for my new phone. Forest green is my favorite color, so anything in that "
        "shade works; just make sure it's MagSafe compatible.",
        ack="Got it. Look for cases listed as MagSafe compatible with a built-in magnet ring, since some cheaper "
        "ones only let the charger work without holding accessories. Silicone shows scratches less than "
        "leather, and a slightly raised lip around the camera helps protect the lenses.",
        question="What shade do I like best?",
    ),
    dict(
        lang="en",
        kind="number",
        turn=195,
        value="7C-03",
        statement="The expo organizers moved several exhibitors, and our booth is now 7C-03, a corner spot. "
        "Corner means two open sides, right?",
        ack="Yes, a corner booth usually has two open sides, which is great for visibility. You can face the "
        "demo toward the busier aisle and use the second side for a small meeting area or brochure stand. "
        "Check whether the new spot has its own power outlet, since that sometimes changes with a relocation.",
        question="What's our stand number at the trade show now?",
        old_turn=125,
        old_value="4B-12",
        old_statement="We got our booth assignment for the retail tech expo: 4B-12, near the south entrance. I "
        "need to plan the layout for a 3 by 3 meter space.",
        old_ack="A 3 by 3 space fits one demo counter, a small standing table and a backdrop banner. Keep the "
        "front open so visitors can step in, put the demo screen at eye level, and reserve a corner for storage "
        "behind a curtain. Being near an entrance is good for foot traffic, so put your strongest message on "
        "the side facing it.",
    ),
    dict(
        lang="ko",
        kind="date",
        turn=130,
        value="6월 12일",
        statement="아버지 생신이 올해는 6월 12일이에요. 칠순이라 가족끼리 식사 자리를 크게 하려고 하는데 선물로 "
        "뭐가 좋을까요?",
        ack="칠순이면 특별하게 챙겨 드리고 싶으시겠어요. 건강검진 패키지나 부부 여행 상품권처럼 경험을 선물하는 것도 "
        "좋고, 가족사진 촬영을 함께 예약하면 오래 남는 기념이 됩니다. 식사 장소는 룸이 있는 한정식집을 한두 달 "
        "전에 예약해 두시는 게 안전해요.",
        question="우리 아빠 생일이 며칠이었죠?",
    ),
    dict(
        lang="en",
        kind="name",
        turn=155,
        value="Rebecca Osei",
        statement="Tax season again. My accountant, Rebecca Osei, wants all my freelance invoices by the end of "
        "the month, and they're scattered across three email accounts.",
        ack="A quick way to gather them is to search each account for words like invoice, receipt and payment, "
        "then export the results into one folder. Name the files by date and client so they can be matched to "
        "bank deposits. Next year, a single label or folder from day one will save you this hunt.",
        question="Who's the person doing my taxes?",
    ),
    dict(
        lang="ko",
        kind="place",
        turn=175,
        value="망원동",
        statement="내일 반차 내고 머리하러 가요. 단골 미용실이 망원동에 있어서 회사에서 좀 멀긴 한데, 원장님이 제 "
        "머리 스타일을 제일 잘 알아서요. 펌 하고 나서 관리 팁 있을까요?",
        ack="오래 다닌 곳이면 믿고 맡기기 좋죠. 펌 직후 48시간은 머리를 감지 않는 게 컬 유지에 좋고, 이후에는 "
        "실리콘이 적은 샴푸와 컬 전용 에센스를 쓰세요. 드라이할 때는 디퓨저로 바람을 약하게 주면 컬이 덜 풀립니다.",
        question="제가 다니는 헤어숍이 어느 동네에 있다고 했죠?",
    ),
    dict(
        lang="ko",
        kind="amount",
        turn=185,
        value="85만원",
        statement="월급 들어오면 자동으로 적금에 85만원씩 넣도록 설정했어요. 나머지로 생활비가 될지 모르겠네요. "
        "가계부 앱 추천해 주실래요?",
        ack="자동이체로 먼저 빼두는 건 저축을 꾸준히 하는 가장 좋은 방법이에요. 가계부 앱은 카드와 계좌를 연동해 "
        "자동으로 분류해 주는 것을 고르시면 입력 부담이 적고, 첫 달은 항목별 지출을 관찰만 하고 예산은 두 번째 "
        "달부터 잡는 게 현실적입니다.",
        question="매달 저축 상품에 자동으로 넣는 금액이 얼마라고 했죠?",
    ),
    dict(
        lang="ko",
        kind="name",
        turn=200,
        value="콩순이",
        statement="지난주에 유기묘 한 마리를 입양했어요. 이름은 콩순이로 지었고요. 처음 며칠은 숨어만 있던데 "
        "언제쯤 적응할까요?",
        ack="새 가족을 맞으셨네요! 보통 새 환경에 익숙해지는 데 1~2주, 완전히 편해지기까지는 한두 달 걸리기도 해요. "
        "숨을 수 있는 공간을 그대로 두고 억지로 꺼내지 마시고, 같은 시간에 밥을 주면서 조용히 곁에 있어 주면 "
        "신뢰가 빨리 쌓입니다.",
        question="최근에 데려온 고양이 이름이 뭐였죠?",
    ),
    # ----- turns 201-300 -----
    dict(
        lang="en",
        kind="preference",
        turn=205,
        value="oat milk flat white",
        statement="If you ever draft a coffee order for the team run, mine is an oat milk flat white, no sugar. "
        "Today I'm buying for six people and trying not to mess it up.",
        ack="Noted. For a group order, a shared list with name, drink, size and milk choice avoids most mistakes, "
        "and ordering through the café's app lets you check everything before paying. Ask the barista to write "
        "names on the cups, which saves a lot of confusion back at the office.",
        question="How do I take my coffee?",
    ),
    dict(
        lang="ko",
        kind="date",
        turn=230,
        value="6월 27일",
        statement="드디어 이사 날짜가 6월 27일로 정해졌어요. 포장이사 업체 견적을 세 군데 받아 봤는데 가격 차이가 "
        "꽤 나네요.",
        ack="날짜가 정해지니 한결 후련하시겠어요. 견적은 금액만 보지 말고 포함 항목(에어컨 이전 설치, 사다리차, "
        "폐기물 처리)과 파손 시 보상 조건을 비교하세요. 손 없는 날이나 월말은 예약이 빨리 차니 마음에 드는 업체가 "
        "있으면 계약금을 걸어 두시는 게 좋습니다.",
        question="새 집으로 짐 옮기는 날이 언제로 잡혔죠?",
    ),
    dict(
        lang="en",
        kind="place",
        turn=240,
        value="Marlowe Inn",
        statement="For the Portland client visit I booked the Marlowe Inn, mostly because it's walking distance "
        "from their office. Can you help me plan the first evening after I land?",
        ack="Sure. After a long flight, keep it light: check in, take a short walk to get daylight and reset your "
        "body clock, and have an early dinner close by. Avoid scheduling anything important that evening, and "
        "lay out your clothes and notes for the next morning's meeting before you go to sleep.",
        question="Which hotel am I staying at when I go see the client in Portland?",
    ),
    dict(
        lang="ko",
        kind="number",
        turn=245,
        value="QZ8K4M",
        statement="부모님 제주 여행 항공권을 제가 대신 끊어 드렸어요. 예약번호는 QZ8K4M이고, 체크인은 부모님이 "
        "직접 하실 거예요. 모바일 체크인 방법을 쉽게 설명해 주실 수 있을까요?",
        ack="부모님께 이렇게 안내해 드리면 됩니다. 항공사 앱에서 '체크인' 메뉴를 누르고 예약 정보와 탑승자 성을 "
        "입력하면 좌석 선택 화면이 나와요. 완료되면 모바일 탑승권이 생기니 캡처해 두시라고 하고, 국내선은 출발 "
        "20분 전까지 탑승구에 가셔야 한다고 꼭 말씀드리세요.",
        question="엄마 아빠 비행기 표 조회할 때 필요한 코드가 뭐였죠?",
    ),
    dict(
        lang="ko",
        kind="amount",
        turn=250,
        value="97만 4천원",
        statement="자동차 보험 갱신 안내가 왔는데 올해 보험료가 97만 4천원이래요. 작년보다 올랐는데 특약을 좀 "
        "빼면 줄일 수 있을까요?",
        ack="주행거리 할인이나 블랙박스 할인처럼 오히려 금액을 낮춰 주는 특약이 있는지 먼저 확인하세요. 자기차량손해 "
        "자기부담금을 높이면 부담이 내려가지만 사고 시 본인 부담이 커지니 운전 빈도를 고려하셔야 하고, 다이렉트 "
        "상품과 비교 견적을 내 보면 차이가 꽤 나는 경우가 많습니다.",
        question="올해 차 보험에 드는 돈이 얼마였더라?",
    ),
    dict(
        lang="ko",
        kind="preference",
        turn=260,
        value="추리소설",
        statement="다음 주 출장 가는 비행기에서 읽을 책을 찾고 있어요. 저는 추리소설을 제일 좋아하는데, 너무 "
        "잔인한 건 별로예요.",
        ack="잔혹한 묘사가 적고 퍼즐 풀이에 집중하는 작품이라면 고전 본격물 쪽이 잘 맞으실 거예요. 아가사 크리스티 "
        "계열이나 일본의 일상 미스터리가 대표적이고, 장거리 비행이라면 한 권으로 완결되는 장편이 몰입하기 좋습니다.",
        question="제가 즐겨 읽는 책 장르가 뭐라고 했죠?",
    ),
    dict(
        lang="en",
        kind="date",
        turn=265,
        value="June 5",
        statement="My son's piano recital is June 5, right after school, and he's been practicing the same piece "
        "every night. How can I help him with stage nerves?",
        ack="Rehearsing the performance itself helps a lot: have him play the piece start to finish for family, "
        "including walking in and bowing, a few times before the day. Teach him a simple breathing routine, like "
        "in for four counts and out for six, and remind him that small mistakes are normal and the audience "
        "rarely notices them.",
        question="What day is my kid playing piano on stage?",
    ),
    dict(
        lang="en",
        kind="number",
        turn=275,
        value="P-5530",
        statement="Building management finally issued my parking permit. The number is P-5530, and apparently I "
        "have to display it on the dashboard every day. Is there an easy way to remember to put it back?",
        ack="The simplest trick is to keep it in one fixed place, like clipped to the sun visor, so you only flip "
        "it down when you park. Some people attach it to the car key with a small ring so they can't leave "
        "without it. A photo of it on your phone is also useful if it gets lost and you need a replacement.",
        question="What's the number on the car pass the building gave me?",
    ),
    dict(
        lang="en",
        kind="amount",
        turn=285,
        value="$780",
        statement="I signed my son up for a two-week science camp in July. It's $780 including lunches, which "
        "felt steep, but he's been asking about it since spring.",
        ack="It sounds like something he'll really enjoy, and two weeks of structured activities with meals is "
        "often comparable to other childcare costs. Ask whether the camp offers sibling or early-registration "
        "discounts, and check whether your company's family benefits cover part of it, since some do.",
        question="How much did the summer program for my kid cost?",
    ),
    dict(
        lang="ko",
        kind="place",
        turn=290,
        value="온기정",
        statement="결혼기념일 저녁은 을지로에 있는 온기정으로 예약했어요. 코스 요리라서 알레르기 정보를 미리 알려 "
        "달라고 하더라고요. 아내가 갑각류 알레르기가 있는데 어떻게 전달하면 좋을까요?",
        ack="미리 연락하실 때 '갑각류(새우, 게, 랍스터) 알레르기가 있어 육수나 소스에도 들어가지 않게 부탁드린다'고 "
        "구체적으로 말씀하시면 좋아요. 방문 당일에도 서버에게 한 번 더 확인해 주시고, 비상약이 있다면 챙겨 가시는 "
        "게 안전합니다.",
        question="기념일 식사하러 가기로 한 식당 이름이 뭐였죠?",
    ),
]

# ---------------------------------------------------------------------------
# Filler slot pools (distractors). None of these may contain an answer; the
# generator also rejects any filled turn that does.
# ---------------------------------------------------------------------------

KO_PEOPLE = [
    "김도현",
    "이수민",
    "박서준",
    "최지은",
    "정민재",
    "강하은",
    "윤태호",
    "장예린",
    "임동욱",
    "한지민",
    "조성훈",
    "신유나",
    "문재원",
    "권나연",
    "황보람",
    "송다인",
    "류현석",
    "남궁지호",
    "백승우",
    "안소희",
]
KO_TEAMS = [
    "디자인팀",
    "데이터팀",
    "인사팀",
    "영업2팀",
    "법무팀",
    "CS팀",
    "인프라팀",
    "브랜드팀",
    "재무팀",
    "모바일팀",
    "QA팀",
    "전략기획팀",
]
KO_CITIES = [
    "부산",
    "대전",
    "광주",
    "춘천",
    "전주",
    "경주",
    "포항",
    "속초",
    "목포",
    "안동",
    "제주",
    "여수",
    "통영",
    "울산",
    "청주",
]
KO_NEAR = ["가평", "양평", "파주", "인천", "수원", "용인", "남양주", "이천", "포천"]
KO_VENUES = [
    "양평 연수원",
    "가평 리조트",
    "송도 컨벤시아",
    "판교 세미나센터",
    "청평 캠프장",
    "홍천 리조트",
    "광교 컨퍼런스홀",
    "여의도 호텔 연회장",
    "을지로 공유오피스",
]
KO_RESTS = [
    "청기와 갈비",
    "담소 국밥",
    "미향",
    "백운정",
    "수라간",
    "달빛 포차",
    "솔밭 한정식",
    "하노이 키친",
    "연희 파스타",
    "바다향 횟집",
    "종로 곰탕집",
    "무교동 낙지",
]
KO_FOODS = [
    "김치찌개",
    "함흥냉면",
    "돈가스",
    "쌀국수",
    "마라탕",
    "부대찌개",
    "칼국수",
    "초밥",
    "제육볶음",
    "비빔밥",
    "된장찌개",
    "닭갈비",
    "순두부찌개",
    "카레",
    "떡볶이",
]
KO_HOBBIES = [
    "볼링",
    "수영",
    "등산",
    "배드민턴",
    "요가",
    "러닝",
    "골프",
    "탁구",
    "스쿼시",
    "풋살",
    "자전거",
]
KO_BOOKS = [
    "에세이",
    "SF 소설",
    "역사책",
    "자기계발서",
    "경제서",
    "시집",
    "그래픽 노블",
    "과학 교양서",
    "여행 에세이",
    "인문서",
]
KO_PETS = ["초코", "모카", "뭉치", "보리", "해피", "별이", "감자", "구름이", "두유", "밤이"]
KO_ITEMS = ["셔츠", "가방", "운동화", "커튼", "러그", "의자", "재킷", "이불 커버"]
KO_PLANTS = [
    "몬스테라",
    "스투키",
    "고무나무",
    "스킨답서스",
    "산세베리아",
    "떡갈고무나무",
    "아레카야자",
]
KO_SKILLS = [
    "SQL",
    "데이터 시각화",
    "일본어",
    "영어 회화",
    "통계",
    "UX 리서치",
    "회계 기초",
    "파이썬",
]
KO_DISTRICTS = [
    "연남동",
    "성수동",
    "합정동",
    "연희동",
    "서촌",
    "익선동",
    "문래동",
    "한남동",
    "신사동",
]
KO_DAYS = ["월", "화", "수", "목", "금"]
KO_ABROAD = [
    "오사카",
    "다낭",
    "타이베이",
    "방콕",
    "하노이",
    "싱가포르",
    "파리",
    "시드니",
    "후쿠오카",
]
LANGS = ["Python", "Go", "Java", "Kotlin", "TypeScript", "Rust", "Node.js"]

EN_PEOPLE = [
    "Jordan Reyes",
    "Priya Nair",
    "Tom Becker",
    "Hannah Lee",
    "Sam Okafor",
    "Mei Tanaka",
    "Lucas Moreau",
    "Grace Kim",
    "Daniel Ortiz",
    "Nora Fischer",
    "Ben Adler",
    "Aisha Rahman",
    "Chris Walsh",
    "Elena Petrova",
    "Kenji Mori",
    "Laura Schmidt",
    "Omar Haddad",
    "Sophie Dubois",
    "Ravi Menon",
    "Tess Murphy",
]
EN_TEAMS = [
    "design",
    "data platform",
    "growth",
    "mobile",
    "security",
    "sales engineering",
    "finance",
    "support",
    "infrastructure",
    "partnerships",
]
EN_CITIES = [
    "Lisbon",
    "Denver",
    "Osaka",
    "Vancouver",
    "Berlin",
    "Singapore",
    "Austin",
    "Helsinki",
    "Riga",
    "Copenhagen",
    "Taipei",
    "Melbourne",
    "Chicago",
    "Dublin",
    "Seattle",
    "Madrid",
]
EN_HOTELS = [
    "Harborside Suites",
    "The Linden Hotel",
    "Parkview Inn",
    "Cedar Lodge",
    "Hotel Aurelia",
    "Northgate Hotel",
    "The Foundry House",
    "Riverside Grand",
]
EN_RESTS = [
    "Copper Pot",
    "Little Saigon Kitchen",
    "The Olive Branch",
    "Saffron House",
    "Harbor Oyster Bar",
    "Green Fig",
    "Maple & Rye",
    "Red Lantern",
    "Casa Lupe",
    "The Brass Tap",
    "Nonna's Table",
]
EN_DISHES = [
    "a vegetable lasagna",
    "chicken curry",
    "beef stew",
    "paella",
    "shakshuka",
    "mushroom risotto",
    "fish tacos",
    "pulled pork sliders",
    "a big pot of chili",
]
EN_BOOKS = [
    "a 500-page history of the Silk Road",
    "a short novel about a lighthouse keeper",
    "a memoir by a former diplomat",
    "a book on behavioral economics",
    "a sci-fi novel about first contact",
    "a biography of a jazz pianist",
    "an essay collection about cities",
]
EN_HOBBIES = [
    "pickleball",
    "salsa dancing",
    "trail running",
    "rowing",
    "five-a-side football",
    "ultimate frisbee",
    "road cycling",
    "open-water swimming",
]
EN_COLORS = [
    "navy blue",
    "burgundy",
    "mustard yellow",
    "charcoal gray",
    "teal",
    "lavender",
    "burnt orange",
]
EN_DRINKS = [
    "iced americanos",
    "cortados",
    "cappuccinos",
    "vanilla lattes",
    "cold brew",
    "chai lattes",
    "double espressos",
]
EN_PETS = ["Biscuit", "Maple", "Rocky", "Pepper", "Luna", "Ollie", "Mochi", "Ziggy"]
EN_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]

# ---------------------------------------------------------------------------
# Korean particle (josa) aware formatting: "{rest:이가}" -> "미향이" / "수라간이".
# ---------------------------------------------------------------------------

JOSA = {
    "이가": ("이", "가"),
    "은는": ("은", "는"),
    "을를": ("을", "를"),
    "과와": ("과", "와"),
    "이라": ("이라", "라"),
    "이에요": ("이에요", "예요"),
    "이랑": ("이랑", "랑"),
    "으로": ("으로", "로"),
}
DIGIT_BATCHIM = {
    "0": True,
    "1": True,
    "2": False,
    "3": True,
    "4": False,
    "5": False,
    "6": True,
    "7": True,
    "8": True,
    "9": False,
}


def _batchim(word: str) -> tuple[bool, bool]:
    """(has final consonant, final consonant is ㄹ) for the last character."""
    ch = word.rstrip()[-1]
    if "가" <= ch <= "힣":
        jong = (ord(ch) - 0xAC00) % 28
        return jong != 0, jong == 8
    if ch.isdigit():
        return DIGIT_BATCHIM[ch], ch in "178"
    return ch.lower() in "lmnr", ch.lower() == "l"


class KFormatter(string.Formatter):
    def format_field(self, value, format_spec):
        if format_spec in JOSA:
            has, rieul = _batchim(str(value))
            if format_spec == "으로":
                return f"{value}{'로' if (not has or rieul) else '으로'}"
            yes, no = JOSA[format_spec]
            return f"{value}{yes if has else no}"
        return super().format_field(value, format_spec)


FMT = KFormatter()

# ---------------------------------------------------------------------------
# Filler templates. u = user, a = assistant, ax = optional extra assistant text.
# ---------------------------------------------------------------------------

KO_TEMPLATES: list[dict] = [
    dict(
        u="{p}님이 {m}월 {d}일 오후 {h}시에 {team} 주간 회의를 잡자고 하는데, 그 시간에 다른 일정이 생길 수도 "
        "있어서요. 회의 시간을 옮겨 달라고 정중하게 말하는 문장 좀 써 주세요.",
        a='이렇게 보내 보세요. "{p}님, 회의 제안 감사합니다. 말씀하신 시간에 선약이 있어서, 혹시 같은 날 오전이나 '
        '다음 날 오후로 조정이 가능할까요?" 대안 시간을 두 개 정도 함께 제시하면 상대가 고르기 쉬워서 답이 빨리 옵니다.',
        ax="회의 목적을 한 줄 덧붙이면 상대도 준비할 시간을 가늠할 수 있어요.",
    ),
    dict(
        u="{team:은는} 이번에 {venue}에서 워크숍을 한대요. {k}명이 1박 2일로 가는데 예산이 {amt_ws:이라}고 하더라고요. "
        "그 정도면 넉넉한 편인가요?",
        a="{k}명 1박 2일 기준이면 숙박, 식사, 세미나실 대관을 합쳐 1인당 비용부터 계산해 보시는 게 좋아요. 교통편을 "
        "전세 버스로 할지 개별 이동으로 할지에 따라 차이가 크고, 저녁 회식 비용이 생각보다 많이 나오는 경우가 "
        "많습니다. 비수기 평일이면 같은 예산으로도 훨씬 여유 있게 쓸 수 있어요.",
        ax="참고로 다른 팀 사례를 물어보시면 예산 협상에 근거로 쓰기 좋습니다.",
    ),
    dict(
        u="친구 {p}가 신혼집 가구를 사는데 예산이 {amt_fur:이라}네요. 소파, 침대, 식탁까지 다 사려면 어떻게 나누는 게 "
        "좋을까요?",
        a="대형 가구 세 가지라면 매일 몸이 닿는 침대 매트리스에 가장 많이 쓰고, 소파와 식탁 순으로 배분하는 걸 많이 "
        "권해요. 전시 상품이나 시즌 오프 할인을 노리면 같은 돈으로 한 단계 좋은 제품을 고를 수 있고, 배송비와 "
        "설치비가 따로 붙는지도 꼭 확인하라고 전해 주세요.",
    ),
    dict(
        u="{lang:으로} 짠 배치 작업이 데이터가 {k}만 건을 넘어가면 확 느려져요. 어디부터 보는 게 좋을까요?",
        a="먼저 프로파일러로 어느 구간에서 시간이 가장 많이 걸리는지 확인하는 게 순서입니다. 대부분은 루프 안에서 "
        "DB를 반복 조회하거나, 전체 데이터를 한 번에 메모리에 올리는 부분이 원인이에요. 조회를 묶어서 한 번에 "
        "가져오고 청크 단위로 나눠 처리하도록 바꾸면 체감 속도가 크게 달라집니다.",
        ax="인덱스가 제대로 걸려 있는지 실행 계획도 함께 확인해 보세요. 처리 건수와 소요 시간을 로그로 남겨 두면 "
        "개선 전후를 비교하기도 쉽습니다.",
    ),
    dict(
        u="요즘 오후 {h}시쯤 되면 두통이 자주 와요. 모니터를 오래 봐서 그런 걸까요?",
        a="화면을 오래 보면 눈의 피로와 목 긴장 때문에 긴장성 두통이 생기기 쉬워요. 20분마다 20초씩 먼 곳을 보는 "
        "습관, 모니터를 눈높이보다 살짝 낮게 두는 것, 물을 자주 마시는 것만으로도 꽤 나아지는 경우가 많습니다. "
        "두통이 점점 심해지거나 시야가 흐려지면 병원에서 확인해 보세요.",
        ax="점심 식사를 거르거나 카페인을 갑자기 줄여도 같은 시간대에 두통이 올 수 있으니 그 부분도 한번 "
        "돌아보세요.",
    ),
    dict(
        u="오늘 저녁에 {food} 해 먹으려고 하는데 재료가 {k2}인분밖에 없어요. 양을 좀 늘릴 방법이 있을까요?",
        a="채소나 두부, 버섯처럼 맛을 크게 해치지 않는 재료를 추가하면 양을 자연스럽게 늘릴 수 있어요. 간은 재료를 "
        "늘린 만큼 마지막에 다시 맞추시고, 밥이나 면 같은 곁들임을 넉넉히 준비하면 한 끼가 훨씬 든든해집니다.",
    ),
    dict(
        u="{p}님이 {m}월 {d}일부터 {city} 출장을 가는데 숙소를 아직 못 정했대요. 역 근처 비즈니스호텔이 나을까요, "
        "아니면 거래처 근처가 나을까요?",
        a="일정이 거래처 미팅 위주라면 거래처 근처가 이동 시간을 줄여 주고, 여러 곳을 돌아다녀야 한다면 역 근처가 "
        "교통이 편합니다. 출장비 규정상 1박 한도가 있으니 그 안에서 조식 포함 여부와 취소 규정을 비교해 보시라고 "
        "전해 주세요.",
        ax="출장 기간이 길면 세탁 시설이 있는 레지던스형 숙소도 고려해 볼 만해요.",
    ),
    dict(
        u="독서 모임에서 다음 달엔 {book} 쪽으로 고르자는 의견이 나왔어요. 모임원이 {k}명인데 다들 바빠서 두꺼운 "
        "책은 부담스러워해요.",
        a="바쁜 모임이라면 300쪽 안팎의 책이나 단편집이 부담이 적어요. 한 달에 한 권이 어렵다면 두 달에 걸쳐 전반부와 "
        "후반부로 나눠 이야기하는 방식도 있고, 발제자를 돌아가며 정하면 참여도가 올라갑니다.",
        ax="모임 전날 핵심 질문 세 개를 단톡방에 미리 올려 두면 다 못 읽은 분도 대화에 끼기 쉬워요.",
    ),
    dict(
        u="회사 탕비실에 둘 커피 머신을 알아보고 있어요. 예산은 {amt_cm} 정도고 하루에 {k}잔쯤 내려요.",
        a="하루 사용량이 많다면 캡슐 머신보다 원두를 갈아 쓰는 전자동 머신이 잔당 비용 면에서 유리합니다. 세척이 "
        "자동으로 되는지, 물통 용량이 충분한지, A/S 센터가 가까운지도 비교해 보세요. 렌탈로 하면 초기 비용 없이 "
        "정기 점검까지 받을 수 있다는 장점도 있어요.",
    ),
    dict(
        u="조카 학교에서 {m}월 {d}일에 학부모 상담이 있는데, 누나가 바빠서 제가 대신 가게 됐어요. 선생님께 뭘 "
        "여쭤보면 좋을까요?",
        a="학교생활에서 친구 관계는 어떤지, 수업 태도와 집중도는 어떤지, 가정에서 도와주면 좋을 부분이 있는지를 "
        "여쭤보시면 좋아요. 미리 누나와 아이에게도 요즘 학교에서 힘든 점이 있는지 물어보고 가시면 상담이 훨씬 "
        "구체적으로 진행됩니다.",
    ),
    dict(
        u="팀장님이 사랑니를 뽑으셨는데 {city}에 있는 {p} 원장님께 받으셨대요. 저도 사랑니가 하나 남아 있는데 "
        "꼭 빼야 하나요?",
        a="사랑니가 똑바로 나 있고 양치가 잘 된다면 꼭 뺄 필요는 없어요. 다만 옆으로 누워 있거나 일부만 나와 있으면 "
        "음식물이 끼어 충치나 잇몸 염증이 생기기 쉬워서 발치를 권하는 경우가 많습니다. 다음 정기 검진 때 파노라마 "
        "사진으로 위치를 확인해 보세요.",
        ax="발치하게 되면 당일은 빨대 사용과 음주를 피하고, 얼음찜질을 짧게 여러 번 하는 게 붓기에 좋습니다.",
    ),
    dict(
        u="다음 주 {day}요일 {team} 회식 장소로 {rest:이가} 후보에 올랐어요. {k}명인데 룸이 있는지 확인하려면 "
        "뭘 물어봐야 할까요?",
        a="단체 예약이라면 룸의 최대 수용 인원, 최소 주문 금액, 이용 시간 제한을 먼저 물어보세요. 코스로 미리 주문해 "
        "두면 시작이 매끄럽고, 주차가 되는지와 법인카드 결제가 가능한지도 함께 확인하면 당일에 당황할 일이 "
        "없습니다.",
    ),
    dict(
        u="친구가 {m}월에 {city:으로} 2박 3일 여행을 간대요. 꼭 가볼 만한 곳 있으면 추천해 달라고 하네요.",
        a="시내 중심가는 하루면 충분히 둘러볼 수 있으니, 하루는 근교나 바다 쪽으로 빼는 걸 추천해요. 현지 시장에서 "
        "아침을 먹어 보는 것도 좋고, 숙소를 이동 동선 중간에 잡으면 시간이 많이 절약됩니다.",
        ax="주말이 끼면 인기 식당은 웨이팅이 길어지니 평일 점심으로 돌리라고 말해 주세요.",
    ),
    dict(
        u="엑셀에서 {k}개 시트에 흩어진 매출 데이터를 하나로 합치고 싶어요. 매번 복붙하느라 시간이 너무 걸려요.",
        a="파워 쿼리를 쓰면 여러 시트를 한 번에 불러와 합칠 수 있고, 원본이 바뀌면 새로 고침만 하면 됩니다. 시트마다 "
        "열 이름과 순서가 같아야 깔끔하게 합쳐지니 먼저 머리글을 통일해 주세요. 자주 하는 작업이라면 결과에 피벗 "
        "테이블을 연결해 두면 보고서까지 자동화할 수 있어요.",
    ),
    dict(
        u="{p}님 생일이 {m}월 {d}일이라서 팀에서 깜짝 파티를 하려고요. 회사에서 할 만한 간단한 아이디어 있을까요?",
        a="점심시간에 케이크와 간단한 다과를 준비하고 팀원들이 한 줄씩 쓴 롤링페이퍼를 건네는 게 부담 없고 반응도 "
        "좋아요. 본인이 주목받는 걸 부담스러워하는 편이면 조용히 책상에 작은 선물과 카드를 두는 방식도 괜찮습니다.",
    ),
    dict(
        u="동생이 {m}월 {d}일에 원룸으로 이사한대요. 보증금이 {amt_dep:이라}는데 계약 전에 확인할 게 뭐가 있을까요?",
        a="등기부등본으로 집주인이 실제 소유자인지, 근저당이 얼마나 잡혀 있는지 먼저 확인해야 해요. 계약 후에는 바로 "
        "전입신고와 확정일자를 받고, 관리비에 포함된 항목과 옵션 가전의 상태도 사진으로 남겨 두라고 알려 주세요.",
        ax="중개사무소에 공제증서 사본을 요청해 두면 혹시 모를 분쟁에 대비할 수 있어요.",
    ),
    dict(
        u="{p}님이 요즘 {hobby}에 빠져서 같이 하자고 계속 권하네요. 운동 초보가 시작하기에 괜찮을까요?",
        a="초보자도 충분히 시작할 수 있는 종목이에요. 처음에는 주 1~2회 가볍게 하면서 몸이 적응하는지 보시고, 장비는 "
        "대여로 시작해 보고 계속할 것 같을 때 사시는 게 좋습니다. 아는 사람과 같이 다니면 꾸준히 하기가 훨씬 쉬워요.",
    ),
    dict(
        u="분기 실적 보고서 초안을 {m}월 {d}일까지 {p}님께 드려야 해요. 요약 페이지에 뭘 넣어야 할까요?",
        a="요약 페이지에는 핵심 지표 세 가지와 목표 대비 달성률, 잘된 점과 부족한 점 한 줄씩, 다음 분기 계획을 넣으면 "
        "충분합니다. 숫자는 표보다 간단한 그래프로 보여 주는 게 읽기 쉽고, 자세한 근거는 부록으로 빼서 본문을 짧게 "
        "유지하세요.",
        ax="초안을 넘길 때 특히 의견을 받고 싶은 부분을 두세 개 짚어 주면 피드백이 훨씬 빨리 돌아옵니다.",
    ),
    dict(
        u="요즘 새벽 {n}시에 자꾸 깨요. 다시 잠드는 데 한 시간씩 걸려서 다음 날 회의 때 너무 졸려요.",
        a="중간에 깼을 때 휴대폰을 보면 빛 때문에 잠이 더 달아나니 시계를 보지 않는 게 좋아요. 20분 넘게 잠이 안 "
        "오면 잠깐 일어나 어두운 곳에서 조용한 일을 하다가 졸릴 때 다시 눕는 방법이 효과적이고, 오후 카페인과 늦은 "
        "저녁 운동을 줄여 보세요. 2주 이상 계속되면 수면 클리닉 상담도 고려해 보세요.",
    ),
    dict(
        u="회사 선배 {p}님 댁에 집들이 초대를 받았어요. 선물 예산은 {amt_gift} 정도로 생각하는데 뭐가 좋을까요?",
        a="집들이 선물로는 디퓨저나 좋은 핸드워시 세트, 고급 휴지처럼 실용적인 게 무난합니다. 선배 취향을 모르면 "
        "와인이나 과일 바구니처럼 소비되는 선물이 부담이 없고, 작은 메시지 카드를 함께 드리면 정성이 느껴져요.",
    ),
    dict(
        u="해외 파트너사에 보낼 메일을 쓰는데, '{m}월 {d}일까지 회신 부탁드립니다'를 너무 딱딱하지 않게 영어로 "
        "바꾸고 싶어요.",
        a="'We'd appreciate it if you could get back to us by then'처럼 쓰면 부드러우면서도 기한이 분명하게 "
        "전달됩니다. 기한 앞에 이유를 한 줄 붙이면, 예를 들어 내부 일정 확정 때문이라고 밝히면 상대가 더 협조적으로 "
        "반응하는 경우가 많아요. 끝에 감사 인사를 한 줄 더하는 것도 자연스럽습니다.",
    ),
    dict(
        u="이번 주말에 아이들이랑 {near} 쪽으로 당일치기를 갈까 해요. 차로 {n}시간 이내로 다녀올 만한 곳 있을까요?",
        a="아이들과 당일치기라면 체험 농장이나 수목원, 과학관처럼 실내외를 오갈 수 있는 곳이 날씨 걱정이 적어요. 오전 "
        "일찍 출발하면 주차와 입장이 수월하고, 점심 먹을 곳을 미리 한두 군데 찾아 두시면 아이들이 배고파할 때 "
        "헤매지 않습니다.",
        ax="돌아오는 길 정체를 피하려면 오후 4시 전에 출발하시는 게 좋아요.",
    ),
    dict(
        u="방금 {team:과와} 한 회의가 {n}시간이나 걸렸는데 결론이 하나도 없어요. 다음 회의는 어떻게 운영하면 "
        "좋을까요?",
        a="회의 전에 안건과 안건별로 결정해야 할 것을 미리 공유하고, 시간을 안건마다 나눠 두는 게 효과적이에요. 마지막 "
        "5분은 결정 사항과 담당자, 기한을 정리하는 데 쓰고, 결론이 안 난 안건은 누가 언제까지 무엇을 알아올지만 "
        "정하고 넘어가세요.",
        ax="진행자와 기록자를 따로 정해 두면 진행자가 논의에 집중할 수 있어서 훨씬 매끄러워집니다.",
    ),
    dict(
        u="온라인에서 산 {item:이가} 사진이랑 색이 너무 달라요. 반품비가 {small:이라}는데 교환을 요청하는 게 "
        "나을까요?",
        a="색상 차이는 판매자 사유로 인정되는 경우도 있으니 먼저 사진을 찍어 문의해 보세요. 상세 페이지에 '모니터에 "
        "따라 색이 다를 수 있음'이 적혀 있으면 단순 변심으로 처리될 수 있지만, 차이가 크면 반품비 면제를 요청해 볼 "
        "만합니다. 교환해도 같은 색감일 가능성이 높으니 환불이 더 나을 수도 있어요.",
    ),
    dict(
        u="오늘 점심은 {food} 먹을까 {food2} 먹을까 고민이에요. 오후에 긴 회의가 있어서 너무 배부르면 안 되거든요.",
        a="오후 회의가 길다면 기름지거나 양이 많은 메뉴보다는 단백질과 채소가 적당히 들어간 쪽이 덜 졸려요. 어느 쪽을 "
        "고르시든 밥이나 면은 평소보다 조금 덜 드시고, 식후에 10분 정도 걸으면 회의 때 집중하기가 훨씬 수월합니다.",
    ),
    dict(
        u="{m}월 {d}일에 연차를 쓰고 싶은데, 그 주에 {team} 마감이 겹쳐 있어서 팀장님께 말씀드리기가 눈치 보여요.",
        a="마감 일정과 겹친다면 본인 업무를 언제까지 마무리하고 누가 급한 일을 대신 볼 수 있는지까지 정리해서 말씀드리면 "
        "훨씬 수월합니다. 연차는 정당한 권리이니 너무 미안해하지 마시고, 일찍 말씀드릴수록 팀장님도 일정 조정이 "
        "편해요.",
        ax="부재 중 연락 방법과 인수인계 메모를 메일로 한 번 더 남겨 두면 팀원들도 안심합니다.",
    ),
    dict(
        u="새로 온 {p}님 개발 환경 세팅을 도와줘야 하는데, {lang} 버전이 프로젝트마다 달라서 헷갈려해요.",
        a="프로젝트별로 버전을 고정하는 도구를 쓰면 간단해요. 저장소 루트에 버전 파일을 두고, README에 설치 순서를 "
        "한 페이지로 정리해 두면 다음 입사자도 혼자 세팅할 수 있습니다. 처음 한 번은 화면 공유로 같이 하면서 "
        "막히는 부분을 문서에 바로 반영하세요.",
    ),
    dict(
        u="옆자리 {p}님네 강아지 {kpet:이가} 슬개골 수술을 한대요. 수술비가 {amt_vet:이라}던데 보통 그 정도 하나요?",
        a="슬개골 수술비는 지역과 병원, 수술 범위에 따라 차이가 꽤 커서 한쪽 기준으로도 병원마다 견적이 많이 달라요. "
        "수술 후 재활과 입원비가 따로 붙는 경우가 많으니 총액을 확인해 보시라고 하고, 펫보험에 가입돼 있다면 보장 "
        "범위도 함께 보라고 전해 주세요.",
    ),
    dict(
        u="어머니 건강검진을 {m}월 {d}일로 예약해 드렸어요. 대장내시경도 같이 하시는데 준비할 게 많나요?",
        a="대장내시경은 검사 3일 전부터 씨앗류, 김, 미역 같은 음식을 피하시고, 전날은 흰죽 같은 가벼운 식사만 "
        "하셔야 해요. 장 정결제는 병원에서 안내한 시간에 맞춰 나눠 드시게 하고, 수면 마취를 하시면 당일 운전이 "
        "안 되니 모시러 갈 사람을 정해 두세요.",
        ax="복용 중인 약, 특히 혈액을 묽게 하는 약이 있으면 병원에 미리 알려야 하니 약 봉투를 챙겨 가시면 좋아요.",
    ),
    dict(
        u="퇴근 후에 {skill} 공부를 시작하려고 해요. 하루 {n}시간 정도 낼 수 있는데 어떻게 계획을 세우면 좋을까요?",
        a="하루 시간이 정해져 있다면 처음 2주는 기초 개념, 이후 4주는 작은 실습 과제 위주로 구성하는 걸 추천해요. "
        "주말 중 하루는 복습과 정리에 쓰고, 공부한 내용을 짧게라도 기록하면 동기 부여에 도움이 됩니다. 한 달에 한 "
        "번은 작은 결과물을 만들어 보세요.",
    ),
    dict(
        u="사내 보안팀에서 {m}월 {d}일까지 모든 계정에 2단계 인증을 켜라고 공지가 왔어요. 인증 앱이랑 문자 중에 "
        "뭐가 나아요?",
        a="보안 측면에서는 인증 앱이 문자보다 안전해요. 문자는 유심 복제 같은 공격에 취약할 수 있거든요. 다만 휴대폰을 "
        "바꾸거나 잃어버렸을 때를 대비해 백업 코드를 안전한 곳에 보관해 두시고, 가능하면 인증 앱의 백업 기능도 켜 "
        "두세요.",
    ),
    dict(
        u="연말 행사 장소로 {venue:과와} {venue2} 두 군데를 비교 중이에요. {k}명 정도 오는데 어디가 나을지 기준을 "
        "잡아 주세요.",
        a="교통 접근성, 수용 인원 대비 여유 공간, 음향과 프로젝터 같은 기본 장비, 식사 제공 방식, 취소 규정을 표로 "
        "나란히 비교해 보세요. 인원이 유동적이라면 최소 보장 인원 조건이 유연한 곳이 안전하고, 답사를 한 번 다녀오면 "
        "사진만으로는 모르는 부분이 보여요.",
        ax="행사 당일 비가 올 경우를 대비해 실내 동선도 함께 확인해 두세요.",
    ),
    dict(
        u="누나네 아이가 요즘 저녁을 잘 안 먹고 간식만 찾는대요. {n2}살인데 누나가 어떻게 하면 좋을지 물어보네요.",
        a="간식 시간을 저녁 두세 시간 전까지로 정하고 양을 일정하게 주면 저녁 식욕이 돌아오는 경우가 많아요. 식사 "
        "시간에는 억지로 먹이기보다 적은 양을 담아 다 먹으면 칭찬해 주고, 아이가 장보기나 요리에 참여하게 하면 밥에 "
        "관심이 생깁니다.",
    ),
    dict(
        u="친구 {p}가 {amt_em:을를} 비상금으로 모았는데, 그냥 통장에 두기 아깝다고 어디에 넣을지 물어보네요.",
        a="비상금은 언제든 꺼낼 수 있어야 하니 파킹통장이나 CMA처럼 입출금이 자유로우면서 이자가 붙는 상품이 "
        "적당해요. 생활비 3~6개월 치는 이런 곳에 두고, 그 이상은 만기가 짧은 예금으로 나눠 두면 금리도 챙길 수 "
        "있습니다. 투자 상품은 비상금과 분리해서 생각하라고 말해 주세요.",
    ),
    dict(
        u="내일 {team} 앞에서 {mins}분짜리 발표를 해야 하는데 너무 떨려요. 마지막 준비로 뭘 하면 좋을까요?",
        a="오늘 밤에는 전체를 실제 시간에 맞춰 소리 내서 한 번만 연습하고, 도입부 첫 세 문장은 외워 두세요. 시작만 "
        "매끄러우면 긴장이 크게 줄어듭니다. 예상 질문 세 개 정도에 대한 답을 메모해 두고, 발표 자료는 PDF로도 "
        "저장해 두면 기술적인 문제에 대비할 수 있어요.",
        ax="발표 직전에는 물을 한 모금 마시고 천천히 숨을 내쉬는 것만으로도 목소리가 훨씬 안정됩니다.",
    ),
    dict(
        u="내일 비가 많이 온다는데 오전 {h}시 미팅에 늦으면 안 돼서요. 지하철이랑 버스 중에 뭐가 나을까요?",
        a="비 오는 날은 도로 정체가 심해서 버스보다 지하철이 시간 예측이 훨씬 정확해요. 평소보다 20~30분 일찍 "
        "출발하시고, 혹시 늦어질 것 같으면 미리 상대에게 예상 도착 시간을 알려 주는 게 좋습니다.",
    ),
    dict(
        u="카드 명세서를 보니 매달 나가는 구독 서비스가 {k2}개나 되네요. 합치면 한 달에 {sub:이라}는데, "
        "정리하는 기준이 있을까요?",
        a="지난 한 달 동안 실제로 몇 번 썼는지를 기준으로, 한 번도 안 쓴 것은 바로 해지하고 비슷한 서비스가 겹치면 "
        "하나만 남기세요. 가족 요금제로 묶을 수 있는 건 합치고, 꾸준히 쓰는 것만 연간 결제로 돌리면 꽤 절약됩니다.",
    ),
    dict(
        u="{p}님이 이직 제안을 받았는데 연봉이 {amt_sal}까지 올라간대요. 저한테 조언을 구하는데 뭐라고 해 주면 "
        "좋을까요?",
        a="연봉 외에도 성과급 구조, 복지, 출퇴근 시간, 맡게 될 역할과 성장 가능성을 함께 따져 보라고 말해 주세요. "
        "지금 회사에서 불만인 점이 새 회사에서 정말 해결되는지가 가장 중요하고, 가능하면 그 팀에 다니는 사람에게 "
        "분위기를 들어보는 게 큰 도움이 됩니다.",
        ax="처우 협의 전에 현재 연봉 명세를 정확히 정리해 두면 협상할 때 유리합니다.",
    ),
    dict(
        u="이번 주 장보기 목록 좀 짜 주세요. 어른 둘, 아이 둘이고 평일 저녁은 {n}번 정도 집에서 먹어요.",
        a="단백질은 닭가슴살이나 돼지고기 앞다리살, 두부, 달걀을 기본으로 하고, 채소는 양파, 애호박, 시금치, 당근처럼 "
        "여러 요리에 돌려 쓸 수 있는 걸 사두세요. 아이들 간식용 과일과 우유, 아침용 빵이나 시리얼도 챙기시고, "
        "주말에 밑반찬을 한 번 만들어 두면 평일이 편해집니다.",
    ),
    dict(
        u="{p}님이 보낸 메일이 좀 공격적으로 느껴져서 답장을 어떻게 써야 할지 모르겠어요. 일정 지연이 우리 팀 탓이라고 "
        "하는데, 사실 요구사항이 {m}월 {d}일에야 확정됐거든요.",
        a="감정적으로 반응하기보다 사실 관계를 시간순으로 정리해서 보내는 게 가장 효과적이에요. 요구사항 확정 시점과 그 "
        "이후 작업 기간을 담담하게 적고, 앞으로 지연을 막기 위한 제안을 하나 덧붙이면 책임 공방보다 해결 쪽으로 "
        "대화가 흘러갑니다. 보내기 전에 잠깐 쉬었다가 다시 읽어 보세요.",
        ax="필요하면 관련된 메일이나 회의록 링크를 함께 붙여 근거를 분명히 해 두세요.",
    ),
    dict(
        u="동생이랑 {abroad} 여행 항공권을 보고 있는데, 동생은 무조건 창가 좌석을 원해요. 장거리 비행에서 좌석 고르는 "
        "팁이 있을까요?",
        a="비상구 좌석은 다리 공간이 넓지만 팔걸이가 고정이고 추가 요금이 붙는 경우가 많아요. 날개 근처는 흔들림이 "
        "덜하고, 화장실과 갤리 바로 앞뒤는 소음과 조명 때문에 피하는 게 좋습니다. 좌석 배치도 사이트에서 기종별로 "
        "확인해 보세요.",
    ),
    dict(
        u="다음 주에 {city} 지사에서 {p}님 일행이 오시는데, 회의실이랑 점심을 준비해야 해요. {k2}명이고 한 분은 "
        "채식을 하신대요.",
        a="회의실은 화면 공유 장비와 화이트보드가 있는 곳으로 잡고, 시작 10분 전에 연결 테스트를 해 두세요. 점심은 "
        "메뉴 선택 폭이 넓은 한식 뷔페나 비빔밥 전문점이 무난하고, 채식하시는 분을 위해 육수까지 고기가 안 들어가는지 "
        "식당에 미리 확인하시면 좋습니다.",
    ),
    dict(
        u="사무실 창가에 둔 {plant} 잎이 누렇게 변하고 있어요. 물은 일주일에 한 번 주는데 뭐가 문제일까요?",
        a="잎이 누렇게 변하는 가장 흔한 원인은 과습이에요. 겉흙이 2~3cm 정도 말랐을 때 주는 방식으로 바꿔 보시고, "
        "화분 아래 배수 구멍이 막히지 않았는지 확인하세요. 에어컨이나 히터 바람을 직접 맞는 자리라면 위치를 옮기는 "
        "것도 도움이 됩니다.",
    ),
    dict(
        u="{lang} API 서버에서 가끔 타임아웃이 나요. 하루에 {k2}번 정도인데 재현이 안 돼서 답답해요.",
        a="재현이 어려운 타임아웃은 로그에 요청 ID와 구간별 소요 시간을 남기는 것부터 시작하세요. 외부 API 호출이나 "
        "DB 커넥션 풀 고갈이 흔한 원인이라, 커넥션 풀 사용량과 느린 쿼리 로그를 같이 보면 패턴이 보이는 경우가 "
        "많습니다. 타임아웃 값과 재시도 정책도 호출 구간마다 명시적으로 설정해 두세요.",
        ax="타임아웃이 특정 시간대에 몰린다면 배치 작업이나 백업 일정과 겹치는지도 확인해 보세요.",
    ),
    dict(
        u="{m}월에 있는 10km 마라톤 대회에 {p}님이랑 같이 나가기로 했어요. 지금은 5km도 힘든데 가능할까요?",
        a="지금부터 주 3회, 매주 거리를 10% 이내로 늘려가면 두세 달 안에 충분히 가능해요. 한 번은 천천히 길게, 한 "
        "번은 짧게 빠르게, 한 번은 편하게 달리는 식으로 나누고, 러닝화는 발에 맞는 걸로 미리 길들여 두세요. 대회 "
        "2주 전부터는 거리를 줄여 컨디션을 조절하는 게 좋습니다.",
    ),
    dict(
        u="내일부터 회사에 도시락을 싸 가려고요. {mins}분 안에 만들 수 있는 메뉴 몇 개만 추천해 주세요.",
        a="전날 저녁에 밥과 반찬을 조금 넉넉히 해서 덜어 두는 게 가장 빠르고, 아침에 만든다면 달걀말이, 간장 닭고기 "
        "볶음, 어묵볶음, 참치 주먹밥 정도가 금방 됩니다. 날이 더워지면 식중독 예방을 위해 반찬을 완전히 식혀서 "
        "담고 보냉 가방을 쓰세요.",
    ),
    dict(
        u="{p}님 결혼식이 {m}월 {d}일 {city}에서 있어요. 축의금은 얼마가 적당할까요? 같은 팀이긴 한데 아주 친하진 "
        "않아요.",
        a="같은 팀이지만 아주 가깝지 않다면 보통 5만 원에서 10만 원 사이가 무난해요. 식사를 하고 오신다면 10만 원 "
        "쪽을 많이 택하고, 멀어서 참석이 어렵다면 다른 동료 편에 보내도 충분히 예의를 차린 거예요.",
    ),
    dict(
        u="우리 팀 {p}님은 이번 휴가 때 {city}에 간대요. {m}월이면 그쪽 날씨는 어떨까요?",
        a="그 시기에는 일교차가 클 수 있으니 얇은 겉옷을 하나 챙기라고 말씀해 주세요. 바닷가 쪽이면 바람이 센 날이 "
        "많고, 장마 시작 시기와 겹치는지도 출발 전에 예보로 확인하는 게 좋습니다. 인기 식당은 성수기에 일찍 문을 "
        "닫기도 하니 저녁 예약을 해 두면 편해요.",
    ),
    dict(
        u="{p}님이 중고차를 {amt_car}에 사려고 하는데 주행거리가 {k2}만 km래요. 괜찮은 조건일까요?",
        a="주행거리만으로 판단하기보다 사고 이력, 침수 여부, 정비 기록을 확인하는 게 더 중요해요. 사고 이력 조회와 "
        "성능점검 기록부를 꼭 받아 보시고, 가능하면 믿을 만한 정비소에서 점검을 한 번 받고 계약하라고 전해 주세요.",
    ),
    dict(
        u="조카가 영어 학원을 옮기고 싶어 한대요. 지금 학원비가 월 {amt2}인데 옮기려는 곳은 더 비싸서 누나가 "
        "고민이에요.",
        a="학원을 옮기려는 이유가 수업 방식 때문인지, 친구 관계 때문인지 먼저 아이와 이야기해 보는 게 좋아요. 새 "
        "학원에서 체험 수업을 받아 보고 아이 반응을 확인한 뒤 결정해도 늦지 않고, 비용 차이가 크다면 온라인 수업이나 "
        "도서관 원서 읽기로 보완하는 방법도 있어요.",
    ),
    dict(
        u="옆 팀 신규 프로젝트 PM은 {p}님이라는데, 같이 일해 본 사람들 말로는 아주 꼼꼼하대요. 그 팀이랑 협업할 때 "
        "주의할 점이 있을까요?",
        a="꼼꼼한 분과 일할 때는 요청 사항을 문서로 남기고, 변경이 생기면 이유와 영향을 함께 공유하는 게 신뢰를 얻는 "
        "지름길이에요. 첫 미팅에서 보고 주기와 선호하는 소통 채널을 확인해 두시고, 작은 약속부터 기한을 잘 지키면 "
        "협업이 훨씬 부드러워집니다.",
    ),
    dict(
        u="{p}님 부모님은 {city}에 사시는데, 이번 명절에 기차표를 못 구해서 고민이래요. 다른 방법이 있을까요?",
        a="고속버스나 심야버스는 기차보다 표가 늦게까지 남아 있는 경우가 많고, 취소표가 출발 하루 이틀 전에 많이 "
        "풀리니 예매 앱 알림을 켜 두라고 알려 주세요. 카풀 앱이나 렌터카 편도 반납도 대안이 될 수 있어요.",
    ),
    dict(
        u="{p}님이 {district}에 새로 생긴 미용실을 추천해 줬는데 가볼까 고민이에요. 펌 가격이 {amt2}이래요.",
        a="처음 가는 곳이라면 후기 사진에서 원하는 스타일과 비슷한 시술 사례가 있는지 먼저 보세요. 상담 때 원하는 "
        "스타일 사진을 보여 주고 손질 난이도를 물어보면 실패 확률이 줄어들고, 첫 방문은 커트만 받아 보는 것도 "
        "방법입니다.",
    ),
    dict(
        u="{p}님 부부가 결혼기념일에 {rest}에서 코스를 먹었는데 정말 좋았대요. 가격대가 {amt2} 정도라던데 "
        "특별한 날 가기에 괜찮을까요?",
        a="기념일 식사라면 분위기와 서비스가 가격만큼 중요하니, 창가나 룸 좌석이 있는지와 레터링 케이크 같은 요청이 "
        "가능한지 예약할 때 물어보세요. 코스 요리는 보통 두 시간 가까이 걸리니 일정 여유를 두시는 게 좋습니다.",
    ),
    dict(
        u="친구네 집주인 {p} 씨가 갑자기 월세를 {amt2} 올리겠다고 했대요. 계약 기간 중인데 이게 가능한가요?",
        a="계약 기간 중에는 원칙적으로 임대인이 일방적으로 월세를 올릴 수 없고, 갱신 시에도 인상 폭에 법적 상한이 "
        "있어요. 친구분께 계약서 내용을 다시 확인하고, 대화 내용은 문자로 남겨 두라고 해 주세요. 분쟁이 길어지면 "
        "주택임대차분쟁조정위원회를 이용할 수 있습니다.",
    ),
    dict(
        u="{p}님은 자동차 보험료가 {amt_ins} 나왔다는데 저보다 훨씬 싸더라고요. 보통 뭐 때문에 차이가 나요?",
        a="운전 경력, 사고 이력, 차량 가액, 운전자 범위 한정 여부, 마일리지 특약 가입 여부 등에 따라 꽤 차이가 "
        "납니다. 같은 조건이라도 다이렉트 채널이 설계사 채널보다 저렴한 경우가 많으니, 갱신 전에 여러 곳 비교 견적을 "
        "받아 보시는 게 좋아요.",
    ),
    dict(
        u="{team}에서 회의실 예약 번호가 {code}로 왔는데, 시스템에서 조회가 안 돼요. 누구한테 물어봐야 할까요?",
        a="총무팀이나 시설 관리 담당자에게 예약 번호와 날짜, 회의실 이름을 함께 보내면 가장 빨리 확인됩니다. 혹시 "
        "다른 시스템에서 발급된 번호일 수 있으니 예약 확인 메일의 발신처도 같이 확인해 보세요.",
    ),
    dict(
        u="친구가 {amt_trip:을를} 모아서 {m}월에 유럽 배낭여행을 간대요. 한 달 일정인데 그 돈이면 빠듯할까요?",
        a="유럽 한 달이라면 항공권을 제외하고 숙소 등급과 도시 선택에 따라 예산 차이가 크게 나요. 서유럽 대도시는 "
        "숙박비가 비싸니 동유럽 비중을 늘리고, 도시 간 이동은 야간열차나 저가 항공을 섞으면 꽤 절약됩니다. 여행자 "
        "보험과 예비비는 꼭 따로 떼어 두라고 전해 주세요.",
    ),
]

# Extra assistant sentences for Korean templates that lack one, keyed by the start of the user text.
KO_AX: dict[str, str] = {
    "친구 {p}가 신혼집": "온라인 최저가만 보지 말고 매장에서 직접 앉아 보고 누워 보는 게 후회를 줄이는 가장 확실한 방법이에요.",
    "오늘 저녁에 {food}": "남은 재료는 다음 날 볶음밥이나 덮밥으로 돌려 쓰면 버리는 것 없이 알뜰하게 먹을 수 있어요.",
    "회사 탕비실에": "원두는 한 번에 많이 사기보다 2주 안에 쓸 만큼 주문하는 게 맛을 유지하는 데 좋습니다.",
    "조카 학교에서": "상담이 끝나면 들은 내용을 간단히 메모해서 누나께 바로 전달해 드리면 놓치는 부분이 없어요.",
    "다음 주 {day}요일": "인원이 많으면 자리 배치를 미리 정해 두는 것도 어색함을 줄이는 데 도움이 됩니다.",
    "{p}님 생일이": "케이크는 본인이 좋아하는 맛을 주변에 슬쩍 물어보고, 초와 칼도 꼭 챙기세요. 작은 준비 하나가 분위기를 만듭니다.",
    "{p}님이 요즘 {hobby}": "처음 몇 번은 기대치를 낮추고 즐기는 데 집중하시면 부담 없이 이어 가기 좋아요.",
    "요즘 새벽 {n}시": "잠들기 한 시간 전부터 조명을 낮추고 화면을 멀리하는 습관도 함께 들여 보세요.",
    "회사 선배 {p}님 댁": "방문 시간은 약속보다 5분 정도 늦게 도착하는 게 준비하는 쪽에서 오히려 편할 때가 많아요.",
    "해외 파트너사에": "상대가 다른 시간대에 있다면 기한 뒤에 기준 시간대를 함께 적어 두면 혼동이 없습니다.",
    "온라인에서 산": "문의할 때 주문 번호와 비교 사진을 함께 보내면 처리 속도가 훨씬 빨라요.",
    "오늘 점심은": "회의 직전에 단 음료나 디저트를 먹으면 오히려 금방 졸릴 수 있으니 물이나 차를 곁들이세요.",
    "새로 온 {p}님": "첫 주에 작은 버그 하나를 직접 고쳐 배포까지 해 보게 하면 전체 흐름을 빨리 익힙니다.",
    "옆자리 {p}님네": "수술 후에는 미끄럼 방지 매트를 깔아 주는 것만으로도 재발 위험을 줄이는 데 도움이 돼요.",
    "퇴근 후에": "처음부터 너무 의욕적으로 시작하면 2주 차에 지치기 쉬우니 목표 시간을 조금 낮게 잡는 것도 방법이에요.",
    "사내 보안팀에서": "업무용과 개인용 계정이 섞여 있다면 어떤 계정에 어떤 인증 수단을 쓰는지 표로 정리해 두면 나중에 편합니다.",
    "누나네 아이가": "식사 전 30분 정도 바깥 놀이를 하면 자연스럽게 배가 고파져서 잘 먹는 아이들도 많아요.",
    "친구 {p}가 {amt_em": "목표 금액과 쓸 시기를 정해 두면 어떤 상품이 맞는지 훨씬 쉽게 고를 수 있다고도 전해 주세요.",
    "내일 비가 많이": "우산과 함께 여벌 양말을 챙겨 두면 미팅 내내 훨씬 쾌적하게 보낼 수 있어요.",
    "카드 명세서를": "해지 전에 남은 이용 기간과 환불 규정을 확인하면 손해 없이 정리할 수 있습니다.",
    "이번 주 장보기": "냉장고에 남은 재료를 먼저 확인하고 목록에서 빼면 낭비를 꽤 줄일 수 있어요.",
    "동생이랑 {abroad}": "온라인 체크인이 열리자마자 좌석을 지정하면 원하는 자리를 잡을 확률이 높아요.",
    "다음 주에 {city} 지사": "방문객용 출입증과 주차 등록도 전날까지 신청해 두시면 당일 로비에서 기다리지 않으셔도 됩니다.",
    "사무실 창가에 둔": "누렇게 변한 잎은 다시 초록색으로 돌아오지 않으니 깨끗하게 잘라 주는 게 새 잎이 나는 데 좋아요.",
    "{m}월에 있는 10km": "함께 나가는 분과 주 1회 같이 달리는 날을 정하면 서로 페이스 메이커가 되어 꾸준히 하기 좋습니다.",
    "내일부터 회사에": "반찬통은 칸이 나뉜 것을 쓰면 국물이 섞이지 않아 훨씬 깔끔하게 먹을 수 있어요.",
    "{p}님 결혼식이": "참석이 어렵다면 축하 메시지를 짧게라도 따로 보내면 마음이 더 잘 전달됩니다.",
    "우리 팀 {p}님은": "여행자 보험과 현지 교통 카드를 미리 준비하면 도착해서 시간을 아낄 수 있다고도 전해 주세요.",
    "{p}님이 중고차를": "소모품 교체 시기도 확인해 두면 구입 후 바로 들어갈 추가 비용을 예상할 수 있어요.",
    "조카가 영어 학원을": "학원 상담 때 반 편성 기준과 숙제 양을 물어보면 아이에게 맞는 곳인지 판단하기 쉬워요.",
    "옆 팀 신규 프로젝트": "회의 후 결정 사항을 짧게 정리해 공유하는 습관을 들이면 그런 분들과 특히 손발이 잘 맞습니다.",
    "{p}님 부모님은": "명절 직전 평일에 미리 출발하거나 명절 당일 새벽 시간대를 노리면 표를 구할 확률이 올라가요.",
    "{p}님이 {district}": "첫 방문 할인이나 앱 예약 혜택이 있는지도 확인해 보시면 부담을 덜 수 있어요.",
    "{p}님 부부가": "특별한 날에는 예약할 때 기념일이라고 미리 말해 두면 작은 서비스를 준비해 주는 곳도 많아요.",
    "친구네 집주인": "인상 요구를 받았다고 바로 답하지 말고, 계약서와 관련 규정을 확인한 뒤 답하는 게 좋다고 전해 주세요.",
    "{p}님은 자동차 보험료가": "갱신 한 달 전쯤 비교 견적을 받아 두면 여유 있게 조건을 따져 볼 수 있어요.",
    "{team}에서 회의실 예약": "급하게 회의실이 필요한 상황이라면 대체 가능한 회의실을 함께 물어보는 것도 방법입니다.",
    "친구가 {amt_trip": "숙소는 도시 중심가에서 한두 정거장 떨어진 곳을 고르면 가격이 꽤 내려간다고도 알려 주세요.",
}
for _key, _ax in KO_AX.items():
    _hits = [tpl for tpl in KO_TEMPLATES if tpl["u"].startswith(_key)]
    assert len(_hits) == 1 and "ax" not in _hits[0], (
        f"KO_AX key {_key!r} matches {len(_hits)} templates"
    )
    _hits[0]["ax"] = _ax

KO_ONESHOT: list[tuple[str, str]] = [
    (
        "'참고용으로 공유드립니다'를 영어 메일에서는 뭐라고 쓰면 자연스러워요?",
        "'Sharing this for your reference'나 'FYI, attaching this for reference' 정도가 가장 자연스러워요. 상대가 꼭 "
        "읽어야 하는 내용은 아니라는 뉘앙스도 함께 전달됩니다.",
    ),
    (
        "계란 반숙으로 삶으려면 몇 분 삶아야 돼요?",
        "물이 끓은 뒤 냉장 계란을 넣고 6분 30초에서 7분 정도 삶은 다음 바로 찬물에 식히면 노른자가 촉촉한 반숙이 "
        "됩니다. 실온 계란이라면 30초 정도 줄이세요.",
    ),
    (
        "엑셀에서 날짜가 이상한 숫자로 바뀌어 버렸어요. 다시 날짜로 보이게 하려면요?",
        "해당 셀을 선택하고 셀 서식에서 표시 형식을 '날짜'로 바꾸면 됩니다. 그 숫자는 1900년 1월 1일부터 센 일련번호라서 "
        "서식만 바꾸면 원래 날짜로 돌아와요.",
    ),
    (
        "회의록에 '액션 아이템'이라는 말 대신 쓸 만한 우리말 표현 있을까요?",
        "'후속 조치'나 '실행 과제', '할 일'이 많이 쓰여요. 담당자와 기한을 같이 적는다면 '후속 조치'가 가장 자연스럽게 "
        "읽힙니다.",
    ),
    (
        "목이 칼칼한데 따뜻한 차 중에 뭐가 좋을까요?",
        "생강차나 꿀을 탄 유자차가 목을 부드럽게 해 주는 데 무난해요. 카페인이 있는 녹차나 홍차는 많이 마시면 오히려 "
        "건조해질 수 있으니 물도 함께 자주 드세요.",
    ),
    (
        "깃에서 마지막 커밋 메시지만 고치고 싶어요. 아직 푸시는 안 했어요.",
        "푸시 전이라면 `git commit --amend`로 메시지를 수정하면 됩니다. 이미 푸시했다면 공유 브랜치에서는 기록을 바꾸지 "
        "않는 게 안전하니 새 커밋으로 설명을 보완하세요.",
    ),
    (
        "주말에 대청소하려는데 욕실 곰팡이는 뭐로 지우는 게 제일 잘 지워져요?",
        "타일 줄눈의 검은 곰팡이는 락스를 희석해 키친타월에 적셔 30분 정도 붙여 두면 잘 지워집니다. 환기를 충분히 "
        "하시고, 산성 세제와는 절대 섞지 마세요.",
    ),
    (
        "출퇴근길에 볼 만한 다큐멘터리 장르 추천해 주세요.",
        "끊어 보기 좋은 건 에피소드가 30분 안팎인 자연 다큐나 음식 다큐 시리즈예요. 집중해서 볼 시간이 있을 때는 한 "
        "편짜리 인물 다큐가 여운이 깁니다.",
    ),
    (
        "팀원 한 명이 화상 회의 때마다 카메라를 꺼요. 뭐라고 해야 할까요?",
        "먼저 이유를 조용히 물어보는 게 좋아요. 네트워크나 환경 문제일 수도 있으니, 팀 전체 규칙으로 '주요 논의 시간에는 "
        "카메라 켜기' 정도를 합의하는 편이 개인을 지적하는 것보다 부드럽습니다.",
    ),
    (
        "파이썬에서 리스트 중복을 제거하면서 순서는 유지하고 싶어요.",
        "`list(dict.fromkeys(items))`를 쓰면 처음 나온 순서대로 중복이 제거돼요. 딕셔너리가 삽입 순서를 보장하기 때문에 "
        "가능한 방법입니다.",
    ),
    (
        "요즘 물을 너무 안 마시는 것 같아요. 하루에 얼마나 마셔야 해요?",
        "일반적으로 하루 1.5~2리터 정도를 권하지만, 커피를 많이 드신다면 그만큼 물을 더 챙기시는 게 좋아요. 책상 위에 "
        "물병을 두면 훨씬 자주 마시게 됩니다.",
    ),
    (
        "회사 메신저 상태 메시지에 '집중 근무 중'을 좀 더 부드럽게 쓰고 싶어요.",
        "'지금은 집중 시간이에요, 급한 건 전화 주세요'처럼 이유와 대안을 함께 적으면 부드럽게 읽혀요. 끝나는 시간을 "
        "적어 두면 상대가 언제 연락하면 될지 알 수 있어 더 좋습니다.",
    ),
]

KO_PREFIXES = [
    "",
    "",
    "",
    "",
    "혹시 시간 되시면 하나만 물어볼게요. ",
    "오늘 아침부터 정신이 없네요. ",
    "갑자기 생각난 건데요, ",
    "점심 먹고 들어와서 여쭤봐요. ",
    "회의 끝나고 잠깐 여유가 생겨서요. ",
    "퇴근 전에 하나만요. ",
]
KO_SUFFIXES = [
    "",
    "",
    "",
    "필요하시면 체크리스트 형태로도 정리해 드릴게요.",
    "구체적인 상황을 조금 더 알려 주시면 더 맞춤형으로 말씀드릴 수 있어요.",
    "일정이 촉박하다면 가장 중요한 한두 가지만 먼저 챙기셔도 충분합니다.",
    "나중에 진행 상황 알려 주시면 다음 단계도 같이 고민해 볼게요.",
]

EN_TEMPLATES: list[dict] = [
    dict(
        u="{P} wants to move our sync with the {eteam} team to {edate} at {h} pm. Can you draft a short reply "
        "that accepts but asks for an agenda?",
        a="Here's a short version: \"Hi {Pf}, {edate} works for me. Could you share a rough agenda beforehand so I "
        'can bring the right numbers? Thanks!" Asking for the agenda early usually keeps the meeting shorter '
        "and more focused.",
        ax="If the meeting tends to run long, you could also suggest capping it at 30 minutes.",
    ),
    dict(
        u="The {eteam} team is doing their offsite at {hotel} in {ecity} on {edate}. They asked if our team "
        "wants to join for the second day; what should I consider before saying yes?",
        a="Think about what your team would actually gain from the shared day, whether there's a session relevant "
        "to both groups, and who covers ongoing work while everyone is away. Check the travel cost per person "
        "against your own budget, and make sure joining late doesn't turn you into guests at someone else's "
        "event. A short call with their organizer usually clarifies this quickly.",
        ax="If you do join, agree on one concrete joint outcome, such as a shared roadmap draft, so the day "
        "feels worth the trip.",
    ),
    dict(
        u="My friend {P} is planning a trip to {ecity} with a budget of {usd_trip} for ten days. Is that realistic, "
        "including flights?",
        a="It depends a lot on the season and where they're flying from, but splitting it into flights, lodging "
        "and daily spending shows quickly where it's tight. Booking flights six to eight weeks ahead and staying "
        "in apartments with a kitchen can stretch a budget considerably. I'd suggest keeping about 10% aside "
        "for surprises like transport strikes or medical costs.",
    ),
    dict(
        u="I'm getting a flaky test in our {lang} service that fails about once in {k} runs. It touches a date "
        "calculation. Where would you look first?",
        a="Date-related flaky tests are often caused by time zones, daylight saving transitions, or tests that "
        "depend on the current time. Freeze the clock in the test, make all datetimes timezone-aware, and check "
        "whether failures correlate with the time of day CI runs. Also look for tests that share state, since "
        "ordering can make date logic fail intermittently.",
        ax="Running the suite with a randomized order a few dozen times locally often reproduces it.",
    ),
    dict(
        u="{P} opened a pull request with {k} files changed and asked me to review it today. How do I review a "
        "large PR without missing the important parts?",
        a="Start with the description and the tests to understand the intent, then review the core logic before "
        "the peripheral files. Leave high-level design comments first, since they may make smaller comments "
        "moot. If it's truly too large, it's fair to ask for it to be split, for example separating refactoring "
        "from behavior changes.",
    ),
    dict(
        u="My colleague {P} recommended {erest} for a team lunch on {wd}. We're {k2} people and one person is "
        "gluten-free. Is it worth calling ahead?",
        a="Yes, calling ahead helps a lot for a group that size. Ask whether they can seat everyone together, how "
        "they handle gluten-free requests, especially cross-contamination in the kitchen, and whether there's a "
        "set lunch menu that speeds things up. Arriving a bit before the main lunch rush also makes service "
        "smoother.",
    ),
    dict(
        u="My lower back has been stiff after long days at my desk, especially on days with {k2} hours of "
        "back-to-back calls. Any quick fixes?",
        a="Try standing up for a couple of minutes every half hour, even during calls, and make sure your chair "
        "supports your lower back with your feet flat on the floor. Simple stretches like knee-to-chest and "
        "cat-cow in the morning and evening can ease stiffness. If the pain spreads down your leg or lasts for "
        "weeks, it's worth seeing a physiotherapist.",
        ax="A cheap lumbar cushion and raising your monitor to eye level are two small changes that often help "
        "more than people expect.",
    ),
    dict(
        u="{P} is flying to {ecity} on {edate} and asked me which hotel area is safer for walking back at night. "
        "I've only been there once.",
        a="Generally, staying near the central business district or a well-lit main street with restaurants is "
        "safer for late returns than quiet residential streets or the blocks around big train stations. Suggest "
        "they check recent reviews that mention the neighborhood at night and keep a ride-hailing app ready. A "
        "hotel within a ten-minute walk of the meeting venue also reduces late-night travel.",
    ),
    dict(
        u="I want to cook {dish} for {k2} people this weekend, but I've never made it for a group. How far "
        "ahead can I prepare things?",
        a="Most of the prep can happen the day before: chop vegetables, make sauces, and marinate any meat. Dishes "
        "like stews and curries often taste better the next day anyway. On the day, focus on the parts that need "
        "to be fresh, like cooking rice or adding herbs, and set the table early so you're not rushing when "
        "guests arrive.",
        ax="Scale spices a little more cautiously than the other ingredients when you multiply a recipe; you can "
        "always add more at the end.",
    ),
    dict(
        u="I'm in a book club at work and this month's pick is {ebook}. I'm only {pct}% through and the meeting is "
        "on {wd}. Any tips for catching up?",
        a="Skim the chapters you can't read fully by reading the first and last few pages of each, then read one or "
        "two key chapters properly so you have specific points to discuss. Audiobooks at 1.25x speed during "
        "commutes help a lot. It's also perfectly fine to join the discussion and say which part you'd like to "
        "finish later.",
    ),
    dict(
        u="I need a new office chair for home. My budget is around {usd_s} and I'm at my desk about {k2} hours "
        "a day.",
        a="In that range, look for adjustable lumbar support, seat depth adjustment, and armrests that move up and "
        "down. A good warranty, ideally five years or more, usually signals better build quality. If possible, "
        "test a few in a showroom, since fit matters more than brand, and check the return policy if you buy "
        "online.",
    ),
    dict(
        u="My mom wants to learn video calls so she can see the kids more often, but she's not comfortable with "
        "smartphones. She'll visit on {edate}; what's the easiest setup to teach her then?",
        a="Pick one app she'll use with everyone, and put a single large shortcut on her home screen for calling "
        "you. Turn up the font size, disable unnecessary notifications, and write three steps on a card next to "
        "her phone. A couple of short practice calls where you guide her through each tap will build confidence "
        "faster than long explanations.",
    ),
    dict(
        u="Can you help me structure the notes from today's planning meeting? We covered {k2} topics, and {P} "
        "owns most of the follow-ups.",
        a="A simple structure works best: a one-line summary at the top, then for each topic the decision made, "
        "open questions, and action items with owner and due date. Put all action items in a single list at the "
        "end too, so people can scan what they owe. Send the notes within a day while everyone still remembers "
        "the discussion.",
    ),
    dict(
        u="The {eteam} team asked for {usd} for new testing devices this quarter, and my manager wants my "
        "opinion before approving. What should I ask them?",
        a="Ask what problem the devices solve, how many they need compared with what's already available, and what "
        "happens if the purchase waits a quarter. It's also worth checking whether a cloud device-testing "
        "service would cover most cases more cheaply. A short comparison of two options usually helps a manager "
        "decide quickly.",
    ),
    dict(
        u="I have a {lay}-hour layover in {ecity} next month. Is that enough time to leave the airport and see "
        "something?",
        a="As a rule of thumb, subtract about three hours for immigration, transit and getting back through "
        "security, and see what's left. If you'd have at least three hours in the city and the airport has a "
        "fast train link, a short visit to a central area is usually doable. Check the entry rules first, and "
        "store your carry-on if the airport has luggage lockers.",
        ax="Keep an eye on the time zone on your phone; layovers are where people most often misread departure "
        "times.",
    ),
    dict(
        u="A supplier quoted {usd_print} for printing our event materials, but another one came in much lower. How do I "
        "ask the first one to match without sounding rude?",
        a="You can be direct and friendly: say you'd like to keep working with them, that you received a lower "
        "quote for similar specifications, and ask whether they have any flexibility. Make sure the comparison "
        "is fair, including paper quality, quantity and delivery times. Vendors often prefer to adjust rather "
        "than lose a repeat customer.",
    ),
    dict(
        u="I've been drinking {k2} coffees a day during this release crunch and my sleep is terrible. How do I cut "
        "back without crashing?",
        a="Reduce by one cup every few days instead of stopping suddenly, which helps avoid withdrawal headaches. "
        "Move your last cup earlier, ideally before 2 pm, and replace one of them with decaf or tea so the "
        "routine stays the same. Water and some daylight in the morning also help with energy during the "
        "transition.",
    ),
    dict(
        u="My neighbor's cat {epet} keeps sneaking into our garden. The kids love it, but should we be feeding it?",
        a="It's best not to feed a cat that has an owner, since it may be on a special diet or the owners may be "
        "watching its weight. You can mention to your neighbor that the kids enjoy the visits and ask whether "
        "they mind. Keep garden chemicals and toxic plants out of reach, just in case.",
    ),
    dict(
        u="I'm presenting our Q{q} results to leadership on {edate}. I have {k} slides and ten minutes. Too many?",
        a="With ten minutes, aim for five or six core slides and move the rest to an appendix. Leaders usually want "
        "the headline result, what's driving it, the risks, and what you need from them. Practice with a timer, "
        "and prepare a one-sentence answer for the questions you most expect.",
        ax="Putting the key number in the slide title, not just in the chart, helps people who skim the deck "
        "later.",
    ),
    dict(
        u="We're interviewing {k2} candidates for the data analyst role next week, and {P} and I split the panel. "
        "How should we divide the questions?",
        a="Split by competency so you don't overlap: one of you covers SQL and analytical problem solving, the other "
        "covers communication, stakeholder handling and past projects. Agree on a shared scoring rubric "
        "beforehand and write notes independently before discussing. That keeps the evaluation fair and makes "
        "the debrief much faster.",
    ),
    dict(
        u="{P} keeps inviting me to their {ehobby} group on {wd} evenings. I'm curious but worried I'll slow them "
        "down. How do I ease in?",
        a="Most groups are happy to have beginners, so ask whether there's a newcomer session or a slower group. Go "
        "once just to try it, be upfront that you're new, and focus on learning the basics rather than keeping "
        "up. If you enjoy it, invest in proper gear after a few sessions.",
    ),
    dict(
        u="I have {k2} tasks due this week and keep getting pulled into ad-hoc requests. How do I protect some focus "
        "time?",
        a="Block two or three 90-minute focus slots in your calendar and treat them like meetings. For ad-hoc "
        "requests, ask when the result is actually needed; many turn out to be less urgent than they sound. A "
        "quick message to your manager listing this week's priorities also makes it easier to say no or push "
        "something back.",
        ax="Turning off chat notifications during those slots, with a status message saying when you'll be back, "
        "helps more than any app.",
    ),
    dict(
        u="It's {P}'s birthday on {edate}, and the team is pooling {usd_s} for a gift. They love {ecolor} and "
        "hiking. Any ideas?",
        a="For a hiker, a quality insulated bottle, a lightweight daypack or a good headlamp are practical choices, "
        "and many come in a range of colors. A gift card for an outdoor store is safe if you're unsure about "
        "sizes. Add a card signed by everyone, since that's often what people remember most.",
    ),
    dict(
        u="A report query on our orders table now takes {k} seconds. It joins three tables and filters by date. "
        "What should I check?",
        a="Look at the execution plan first to see whether it's doing full table scans. An index on the date column "
        "used in the filter, and on the join keys, often makes a dramatic difference. If the report doesn't need "
        "real-time data, a nightly summary table can bring the query down to milliseconds.",
    ),
    dict(
        u="My son's school sent a form asking for two emergency contacts by {edate}. Should I list my parents even "
        "though they live far away?",
        a="Emergency contacts should ideally be people who can reach the school quickly, so a nearby relative, "
        "neighbor or close friend is a better second choice. You can still list your parents as an additional "
        "contact if the form allows it. Let whoever you list know, so they aren't surprised by a call.",
    ),
    dict(
        u="I'm thinking of cycling to work a few days a week. It's about {km} km each way. Is that reasonable for "
        "a beginner?",
        a="For most people, up to about 10 to 15 km each way is manageable after a few weeks of building up. Start "
        "with one or two days a week, plan a route with bike lanes even if it's a little longer, and check "
        "whether your office has showers or a place to store the bike. A good lock and lights are the first "
        "things to buy.",
    ),
    dict(
        u="{P} and {P2} keep clashing in design reviews, and it's starting to affect the rest of the team. I'm not "
        "their manager, but I run the reviews. What can I do?",
        a="As the facilitator, you can set clearer ground rules: comments focus on the work, each person gets "
        "uninterrupted time, and decisions are made against agreed criteria. Talk to each of them privately about "
        "what they need from the review. If it continues, it's reasonable to raise it with their manager, "
        "framed around the impact on the team's work.",
        ax="Writing the decision criteria on the first slide of every review makes it much easier to steer a "
        "heated discussion back to the work.",
    ),
    dict(
        u="I want to improve my Japanese before a trip in {emonth}. I can study about {mins} minutes a day. What "
        "should I focus on?",
        a="With limited time, focus on travel situations: greetings, ordering food, asking for directions, and "
        "numbers. Spaced-repetition flashcards for ten minutes a day plus listening to short dialogues works "
        "well. In the last two weeks, practice speaking out loud, even alone, since that's usually what people "
        "find hardest on the trip.",
    ),
    dict(
        u="The kitchen faucet has been dripping for a week. A plumber quoted {usd_s}, which seems high. Could I fix "
        "it myself?",
        a="Many drips come from a worn cartridge or washer, which is a fairly simple replacement once you turn off "
        "the water supply under the sink. Take the old part to a hardware store to get an exact match, and watch "
        "a tutorial for your faucet model. If the leak is from the base or the pipes, though, it's worth paying "
        "a professional.",
    ),
    dict(
        u="{P} is speaking at a conference in {ecity} on {edate} and asked me to review their slides. What should "
        "I focus on in my feedback?",
        a="Focus on the story first: is the main message clear within the first two minutes, and does each slide "
        "support it? Then check readability, like font size, contrast and the amount of text per slide. Finally, "
        "suggest where a concrete example or a demo would make the talk more memorable.",
        ax="Framing feedback as two or three priorities rather than a long list makes it much easier to act on "
        "before the event.",
    ),
    dict(
        u="My cousin asked how much of a salary to save each month. They take home about {usd_m} a month and "
        "share rent with a roommate.",
        a="A common starting point is to save 15 to 20% of take-home pay, but an emergency fund of three to six "
        "months of expenses comes first. Automating the transfer on payday makes it much easier to stick to. "
        "Sharing rent is a big advantage, so they might be able to save more than the usual guideline.",
    ),
    dict(
        u="I need a room for a {k}-person workshop on {edate}, but all the big rooms are taken. Any creative "
        "alternatives?",
        a="You could split the group across two adjacent smaller rooms with a shared video link, or ask facilities "
        "about open areas like the cafeteria outside lunch hours. Co-working spaces nearby often rent rooms by "
        "the half day at reasonable rates. If the date is flexible, moving a day or two might free up a larger "
        "room.",
    ),
    dict(
        u="My colleague {P} swears by the window seat on red-eye flights so they can lean against the wall. I'm "
        "booking their ticket to {ecity}; anything else I should pick for them?",
        a="If they're sleeping on a red-eye, a seat away from the galley and lavatories will be quieter, and avoid "
        "the row directly in front of an exit row, since those often don't recline. Adding a meal preference in "
        "advance helps if they have dietary needs. Also check whether their fare allows free seat selection or "
        "whether it's better to upgrade the fare.",
    ),
    dict(
        u="The office is switching coffee suppliers and asked for feedback. Most of my team drinks {edrink}, so "
        "what should we ask the new supplier about?",
        a="Ask about the consistency of the beans and roast, whether they also supply milk and plant-based "
        "alternatives, and how often they service the machines. A tasting session before signing is reasonable, "
        "and so is a short trial period. Price per cup and delivery reliability matter more over time than the "
        "first impression.",
    ),
    dict(
        u="We have a free Saturday and the forecast says {temp}°C and sunny. Any ideas for a family day that won't "
        "wear everyone out?",
        a="A picnic at a big park with a playground, followed by an early lunch or ice cream, is an easy win with "
        "kids. If you want something a bit more special, a botanical garden or a short bike ride along a river "
        "path works well at that temperature. Keep the late afternoon free so everyone can rest before the week "
        "starts.",
    ),
    dict(
        u="Performance reviews are due {edate}, and I have to write one for {P}, who did great work but missed two "
        "deadlines. How do I balance it?",
        a="Lead with specific achievements and their impact, then describe the missed deadlines factually, "
        "including context and what would help next time. Avoid vague labels and use concrete examples for both "
        "strengths and growth areas. Ending with clear goals for the next period makes the review feel fair and "
        "forward-looking.",
        ax="If you're unsure about the context behind the missed deadlines, a short chat with them before writing "
        "avoids surprises.",
    ),
    dict(
        u="My running shoes have about {shoe} km on them. Is it time to replace them, and should I get the same "
        "model?",
        a="Most running shoes last roughly 500 to 800 km, depending on your weight, the surface and the shoe itself. "
        "If the midsole feels flat or you notice new aches, it's time. If the current model works for you, "
        "sticking with it is the safest choice; just check whether a newer version changed the fit.",
    ),
    dict(
        u="I'm hosting {k2} friends for dinner on {wd}. One is vegan and another doesn't eat spicy food. Can you "
        "suggest a menu that works for everyone?",
        a="A build-your-own setup works well here: a mild vegetable curry with coconut milk, rice, roasted "
        "vegetables, and toppings like herbs, nuts and chili sauce on the side. That way the spicy element is "
        "optional and the main dish is vegan. Add a simple green salad and fruit for dessert, and everyone can "
        "eat comfortably.",
    ),
    dict(
        u="Our family photos are spread across {k2} phones and an old laptop. What's a simple backup setup that my "
        "parents could also use?",
        a="A shared cloud photo library with automatic upload on each phone is the easiest, and an external drive "
        "as a second copy covers you if an account is ever lost. Set it up yourself on each device so your "
        "parents don't have to configure anything. Check every few months that uploads are still running.",
    ),
    dict(
        u="A colleague, {P}, needs a business visa for a trip to {ecity}, and the appointment is on {edate}. They "
        "asked me what to wear and how early to arrive.",
        a="Business casual is a safe choice: neat, not overly formal, and comfortable for waiting. Arriving 20 to "
        "30 minutes early is usually enough, since many consulates don't let people in much before their slot. "
        "Remind them to bring printed copies of everything, because phones often have to be left at security.",
    ),
    dict(
        u="{P}'s company has booth {booth} at the same expo we're going to. Would a joint demo be a good idea, or "
        "does that confuse visitors?",
        a="A joint demo can work well if your products genuinely complement each other and the story is simple "
        "enough to explain in a minute. Agree upfront on who leads conversations, how leads are shared, and how "
        "both brands appear on the screen. If the overlap is weak, a simple cross-referral arrangement is often "
        "enough.",
    ),
    dict(
        u="My coworker {P} is switching accountants because the current one charges {usd_s} just for a simple "
        "return. Is that normal?",
        a="Fees vary a lot by city and by how complex the return is, so a simple return at that price may be on the "
        "high side. Suggest asking two or three accountants for a fixed-fee quote with the exact documents "
        "listed. For very simple situations, reputable tax software can be enough.",
    ),
    dict(
        u="{P}'s kids are going to a soccer camp that costs {usd_s} a week, and they asked if I'd carpool on "
        "{wd}s. How do I set up a fair rotation?",
        a="A shared calendar with fixed days per family is the simplest, with one person designated as the backup "
        "each week. Agree upfront on pickup times, car seats, and what happens when someone is sick. A small "
        "group chat for last-minute changes keeps everyone informed without endless phone calls.",
    ),
    dict(
        u="{P} is choosing between two laptops, one at {usd_s} and one at {usd_s2}, for video editing. What specs "
        "should decide it?",
        a="For video editing, the GPU and RAM matter most, followed by a fast SSD with plenty of space. If the "
        "cheaper model has 16GB of RAM and a weaker GPU, the more expensive one will save a lot of render time. "
        "Suggest checking real export benchmarks for the editing software they use.",
    ),
    dict(
        u="{P}'s daughter has a dance recital on {edate}, and they asked me to film it. Any tips for getting a "
        "decent video with a phone?",
        a="Sit as close to the center as you can, lock the focus and exposure by long-pressing on the stage, and "
        "avoid zooming digitally since it adds grain. A small tripod or resting your elbows on your knees keeps "
        "things steady. Make sure there's enough free storage and battery before it starts.",
    ),
    dict(
        u="Visitor parking for {P} on {edate}: the security desk gave me code {pcode}. Do I just forward it, or is "
        "there a better way?",
        a="Forward it along with the parking entrance location, the floor to use, and the name of the person to "
        "call if the barrier doesn't open. A short map or photo of the entrance helps a lot if it's hard to "
        "find. Remind them to keep the message handy, since there's often no signal in underground garages.",
    ),
]

EN_ONESHOT: list[tuple[str, str]] = [
    (
        "Quick grammar check: is it 'compliment' or 'complement' when two tools work well together?",
        "It's 'complement', with an e, meaning something that completes or goes well with something else. "
        "'Compliment' with an i is praise, like telling someone their slides looked great.",
    ),
    (
        "How long should I boil eggs for jammy yolks?",
        "About six and a half to seven minutes from when they go into boiling water, then straight into an ice bath. "
        "Fridge-cold eggs may need an extra 30 seconds.",
    ),
    (
        "What's a good way to end a Slack message asking for a favor without sounding pushy?",
        'Something like "No rush, but if you get a chance this week, that would really help" works well. Giving an '
        "honest time frame is more useful to the other person than a vague 'whenever'.",
    ),
    (
        "Is it worth learning keyboard shortcuts for my IDE, or is that a productivity myth?",
        "For the handful of actions you repeat dozens of times a day, like search, go to definition and rename, "
        "shortcuts genuinely save time and keep you focused. Learn three at a time and ignore the rest until you "
        "notice another repeated action.",
    ),
    (
        "How do I politely leave a meeting that's running over?",
        "A short, friendly line works: \"I have another commitment at the top of the hour, so I'll need to drop off. "
        "I'll catch up on the notes.\" Mentioning it a few minutes before you leave is kinder than vanishing "
        "mid-sentence.",
    ),
    (
        "My houseplant's leaves are drooping even though the soil is wet. What's going on?",
        "Drooping with wet soil usually points to overwatering or root rot, since the roots can't get oxygen. Let the "
        "soil dry out, check that the pot drains, and if the roots look brown and mushy, trim them and repot in fresh "
        "soil.",
    ),
    (
        "In git, how do I see which commit changed a specific line?",
        "Use `git blame path/to/file` and find the line, or `git log -L start,end:path/to/file` to see the full "
        "history of that range. Most IDEs also show blame annotations in the gutter.",
    ),
    (
        "What's a good stretch for tight shoulders after a long day of typing?",
        "Try a doorway stretch: place your forearms on either side of a door frame and lean forward gently for 30 "
        "seconds. Neck rolls and shoulder blade squeezes help too, especially if you do them a few times during the "
        "day, not just at the end.",
    ),
    (
        "What's the difference between 'affect' and 'effect' again?",
        "'Affect' is usually the verb (the delay will affect the launch) and 'effect' is usually the noun (the delay "
        "had a big effect). The exception is 'effect change', meaning to bring about change.",
    ),
    (
        "Any quick way to make a bland soup taste better?",
        "A splash of acid like lemon juice or vinegar often brightens it immediately, and a bit more salt brings the "
        "other flavors forward. A spoon of miso, soy sauce or grated parmesan adds depth if it still tastes flat.",
    ),
]

EN_PREFIXES = [
    "",
    "",
    "",
    "",
    "Quick question before my next call. ",
    "Random one for you. ",
    "Okay, switching topics. ",
    "Hi again. ",
    "Sorry, another one. ",
    "While I remember: ",
]
EN_SUFFIXES = [
    "",
    "",
    "",
    "Happy to turn this into a checklist if that helps.",
    "If you share a bit more detail, I can tailor this further.",
    "If time is tight, focus on the first point and skip the rest.",
    "Let me know how it goes and we can plan the next step.",
]


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def norm(text: str) -> str:
    """NFKC, case-folded, all whitespace removed."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).casefold())


def count(needle: str, hay: str) -> int:
    return norm(hay).count(norm(needle))


def _man(rng: random.Random, lo: int, hi: int, step: int = 10) -> str:
    """A Korean amount in 만원, e.g. "1,250만원"."""
    return f"{rng.randint(lo // step, hi // step) * step:,}만원"


def slots(rng: random.Random, today: date) -> dict:
    """Random slot values for one filler turn; dates lie a few days to weeks after `today`."""
    p, p2 = rng.sample(EN_PEOPLE, 2)
    v1, v2 = rng.sample(KO_VENUES, 2)
    f1, f2 = rng.sample(KO_FOODS, 2)
    kd = today + timedelta(days=rng.randint(3, 75))
    ed = today + timedelta(days=rng.randint(3, 75))
    return {
        # Korean
        "p": rng.choice(KO_PEOPLE),
        "team": rng.choice(KO_TEAMS),
        "city": rng.choice(KO_CITIES),
        "near": rng.choice(KO_NEAR),
        "venue": v1,
        "venue2": v2,
        "rest": rng.choice(KO_RESTS),
        "food": f1,
        "food2": f2,
        "hobby": rng.choice(KO_HOBBIES),
        "book": rng.choice(KO_BOOKS),
        "kpet": rng.choice(KO_PETS),
        "item": rng.choice(KO_ITEMS),
        "plant": rng.choice(KO_PLANTS),
        "skill": rng.choice(KO_SKILLS),
        "district": rng.choice(KO_DISTRICTS),
        "day": rng.choice(KO_DAYS),
        "abroad": rng.choice(KO_ABROAD),
        "lang": rng.choice(LANGS),
        "m": kd.month,
        "d": kd.day,
        "amt_ws": _man(rng, 200, 900),
        "amt_fur": _man(rng, 300, 1500),
        "amt_cm": _man(rng, 60, 400, 5),
        "amt_dep": _man(rng, 500, 5000, 100),
        "amt_vet": _man(rng, 80, 400, 5),
        "amt_em": _man(rng, 500, 3000, 50),
        "amt_sal": _man(rng, 5200, 9800, 50),
        "amt_car": _man(rng, 800, 4500, 50),
        "amt_trip": _man(rng, 300, 900),
        "amt_ins": _man(rng, 55, 140, 1),
        "amt_gift": _man(rng, 3, 15, 1),
        "amt2": _man(rng, 5, 45, 1),
        "small": f"{rng.randint(3, 9)}천원",
        "sub": f"{rng.randint(3, 14)}만 {rng.randint(1, 9)}천원",
        "code": f"{rng.choice('ABDEFGHJ')}{rng.randint(100, 999)}-{rng.randint(10, 99)}",
        # English
        "P": p,
        "Pf": p.split()[0],
        "P2": p2,
        "eteam": rng.choice(EN_TEAMS),
        "ecity": rng.choice(EN_CITIES),
        "hotel": rng.choice(EN_HOTELS),
        "erest": rng.choice(EN_RESTS),
        "dish": rng.choice(EN_DISHES),
        "ebook": rng.choice(EN_BOOKS),
        "ehobby": rng.choice(EN_HOBBIES),
        "ecolor": rng.choice(EN_COLORS),
        "edrink": rng.choice(EN_DRINKS),
        "epet": rng.choice(EN_PETS),
        "wd": rng.choice(EN_WEEKDAYS),
        "edate": f"{MONTHS[ed.month - 1]} {ed.day}",
        "emonth": MONTHS[(today.month - 1 + rng.randint(1, 4)) % 12],
        "usd": f"${rng.randint(25, 480) * 100:,}",
        "usd_trip": f"${rng.randint(20, 90) * 100:,}",
        "usd_print": f"${rng.randint(12, 95) * 100:,}",
        "usd_s": f"${rng.randint(12, 95) * 10}",
        "usd_s2": f"${rng.randint(96, 240) * 10:,}",
        "usd_m": f"${rng.randint(20, 60) * 100:,}",
        "booth": f"{rng.randint(1, 9)}{rng.choice('ABDEF')}-{rng.randint(10, 40):02d}",
        "pcode": f"{rng.choice('VGKT')}{rng.randint(1000, 9999)}",
        # numbers
        "h": rng.randint(1, 5),
        "k": rng.randint(6, 40),
        "k2": rng.randint(3, 12),
        "n": rng.randint(2, 4),
        "n2": rng.randint(4, 9),
        "mins": rng.choice([10, 15, 20, 30]),
        "pct": rng.choice([20, 30, 40, 50]),
        "q": rng.randint(1, 4),
        "lay": rng.randint(5, 11),
        "km": rng.randint(5, 15),
        "temp": rng.randint(14, 26),
        "shoe": rng.randint(45, 90) * 10,
    }


# ---------------------------------------------------------------------------
# Timeline: 2026-03-03 .. 2026-05-29 (KST), several turns per working day,
# weekends mostly off, a few longer gaps (holidays, a short vacation).
# ---------------------------------------------------------------------------


def make_times(rng: random.Random, n: int) -> list[str]:
    start, end = date(2026, 3, 3), date(2026, 5, 29)
    off = {
        date(2026, 4, 13),
        date(2026, 4, 14),
        date(2026, 4, 15),  # short vacation
        date(2026, 5, 1),
        date(2026, 5, 4),
        date(2026, 5, 5),  # Labor Day, bridge day, Children's Day
        date(2026, 5, 25),
    }  # Buddha's Birthday (substitute)
    days = []
    d = start
    while d <= end:
        weekend = d.weekday() >= 5
        if d in off:
            pass
        elif weekend:
            if rng.random() < 0.12:
                days.append(d)
        elif rng.random() < 0.88:
            days.append(d)
        d += timedelta(days=1)
    counts = [rng.randint(3, 7) if day.weekday() < 5 else rng.randint(1, 3) for day in days]
    while sum(counts) != n:
        i = rng.randrange(len(days))
        if sum(counts) < n and counts[i] < (9 if days[i].weekday() < 5 else 4):
            counts[i] += 1
        elif sum(counts) > n and counts[i] > 1:
            counts[i] -= 1
    out = []
    for day, c in zip(days, counts, strict=True):
        minutes: set[int] = set()
        while len(minutes) < c:
            if day.weekday() >= 5:
                minutes.add(rng.randint(10 * 60, 21 * 60))
            elif rng.random() < 0.88:
                minutes.add(rng.randint(9 * 60, 18 * 60 + 30))
            else:
                minutes.add(
                    rng.choice(
                        [rng.randint(7 * 60 + 30, 8 * 60 + 59), rng.randint(19 * 60, 22 * 60 + 30)]
                    )
                )
        for m in sorted(minutes):
            t = datetime(day.year, day.month, day.day, m // 60, m % 60, tzinfo=KST)
            out.append(t.isoformat(timespec="seconds"))
    return out


# ---------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------


def build() -> tuple[dict, dict]:
    rng = random.Random(SEED)
    fixed: dict[int, tuple[str, str, str]] = {}  # 1-based turn -> (lang, user, assistant)
    for f in FACTS:
        fixed[f["turn"]] = (f["lang"], f["statement"], f["ack"])
        if f.get("old_turn"):
            fixed[f["old_turn"]] = (f["lang"], f["old_statement"], f["old_ack"])
    assert len(fixed) == len(FACTS) + sum(1 for f in FACTS if f.get("old_turn")), (
        "two facts share a turn"
    )

    forbidden = [f["value"] for f in FACTS] + [f["old_value"] for f in FACTS if f.get("old_value")]
    forbidden_n = [norm(v) for v in forbidden]

    filler_turns = [t for t in range(1, N_TURNS + 1) if t not in fixed]
    n_ko_total = round(N_TURNS * KO_SHARE)
    n_ko_fill = n_ko_total - sum(1 for v in fixed.values() if v[0] == "ko")
    ko_set = set(rng.sample(filler_turns, n_ko_fill))

    decks: dict[str, list] = {"ko": [], "en": []}
    oneshots = {"ko": list(KO_ONESHOT), "en": list(EN_ONESHOT)}
    rng.shuffle(oneshots["ko"])
    rng.shuffle(oneshots["en"])
    seen_users: set[str] = {norm(v[1]) for v in fixed.values()}

    def draw(lang: str) -> dict | tuple:
        if not decks[lang]:
            pool = list(KO_TEMPLATES if lang == "ko" else EN_TEMPLATES)
            # one-shot Q&As are dealt into the deck in small batches so they spread out
            for _ in range(3):
                if oneshots[lang]:
                    pool.append(oneshots[lang].pop())
            rng.shuffle(pool)
            decks[lang] = pool
        return decks[lang].pop()

    turns = []
    times = make_times(rng, N_TURNS)
    for t in range(1, N_TURNS + 1):
        if t in fixed:
            _, user, assistant = fixed[t]
        else:
            lang = "ko" if t in ko_set else "en"
            prefixes, suffixes = (
                (KO_PREFIXES, KO_SUFFIXES) if lang == "ko" else (EN_PREFIXES, EN_SUFFIXES)
            )
            for _attempt in range(200):
                tpl = draw(lang)
                if isinstance(tpl, tuple):
                    user, assistant = tpl
                else:
                    vals = slots(rng, datetime.fromisoformat(times[t - 1]).date())
                    user = rng.choice(prefixes) + FMT.format(tpl["u"], **vals)
                    assistant = FMT.format(tpl["a"], **vals)
                    if tpl.get("ax") and rng.random() < (0.8 if lang == "ko" else 0.55):
                        assistant += " " + FMT.format(tpl["ax"], **vals)
                    suffix = rng.choice(suffixes)
                    if suffix:
                        assistant += " " + suffix
                both = norm(user + "\n" + assistant)
                if any(v in both for v in forbidden_n) or norm(user) in seen_users:
                    if isinstance(tpl, tuple):  # give a rejected one-shot back to its pool
                        oneshots[lang].append(tpl)
                    continue
                break
            else:
                raise AssertionError(f"could not build a clean filler turn {t}")
            seen_users.add(norm(user))
        turns.append({"user": user, "assistant": assistant, "time": times[t - 1]})

    transcript = {"turns": turns}
    questions = {
        "questions": [f["question"] for f in FACTS],
        "answers": [f["value"] for f in FACTS],
        "kinds": [f["kind"] for f in FACTS],
        "fact_turns": [f["turn"] for f in FACTS],
        "updated": [bool(f.get("old_turn")) for f in FACTS],
    }
    return transcript, questions


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------

HANGUL = re.compile(r"[가-힣]")
LATIN = re.compile(r"[A-Za-z]")
EN_STOP = set(
    "a an the i my me is are was were be do did does to of in on at for with what whats what's who "
    "whos who's which when where how again now that this it its it's by and or our we us".split()
)


def lang_of(text: str) -> str:
    h, l_ = len(HANGUL.findall(text)), len(LATIN.findall(text))
    return "ko" if h > 0 and h >= 0.5 * l_ else ("en" if h == 0 else "mixed")


def content_words(text: str) -> set[str]:
    words = re.findall(r"[\w'-]+", unicodedata.normalize("NFKC", text).casefold())
    return {w for w in words if len(w) >= 2 and w not in EN_STOP}


def check(transcript: dict, qs: dict) -> list[str]:
    errors: list[str] = []

    def need(cond: bool, msg: str) -> None:
        if not cond:
            errors.append(msg)

    turns = transcript["turns"]
    need(len(turns) == N_TURNS, f"expected {N_TURNS} turns, got {len(turns)}")

    # languages
    langs = []
    for i, t in enumerate(turns, 1):
        lu, la = lang_of(t["user"]), lang_of(t["assistant"])
        need(lu == la and lu in ("ko", "en"), f"turn {i}: user/assistant language {lu}/{la}")
        langs.append(lu)
    ko_share = langs.count("ko") / len(turns)
    need(0.55 <= ko_share <= 0.65, f"Korean share {ko_share:.2f} not ~0.6")

    # lengths
    lengths = [len(t["user"]) + len(t["assistant"]) for t in turns]
    mean_len = sum(lengths) / len(lengths)
    need(mean_len >= 320, f"mean turn length {mean_len:.1f} < 320")
    need(
        min(lengths) <= 220 and max(lengths) >= 600,
        f"turn lengths do not vary enough ({min(lengths)}-{max(lengths)})",
    )

    # uniqueness of filler
    users = [norm(t["user"]) for t in turns]
    pairs = [norm(t["user"] + "|" + t["assistant"]) for t in turns]
    need(len(set(users)) == len(users), "two turns have the same user message")
    need(len(set(pairs)) == len(pairs), "two turns are identical")

    # times
    stamps = []
    for i, t in enumerate(turns, 1):
        ts = t["time"]
        ok = bool(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", ts))
        need(ok, f"turn {i}: time {ts!r} is not ISO 8601 with offset")
        dt = datetime.fromisoformat(ts)
        need(dt.utcoffset() is not None, f"turn {i}: no offset")
        stamps.append(dt)
    need(all(a < b for a, b in pairwise(stamps)), "times are not strictly increasing")
    span = (stamps[-1] - stamps[0]).days
    need(80 <= span <= 100, f"span {span} days is not about three months")
    per_day = Counter(s.date() for s in stamps)
    need(sum(per_day.values()) / len(per_day) >= 3, "fewer than ~3 turns per active day")
    work = sum(1 for s in stamps if s.weekday() < 5 and 9 <= s.hour < 19) / len(stamps)
    need(work >= 0.75, f"only {work:.0%} of turns in working hours")
    gaps = [(b.date() - a.date()).days for a, b in pairwise(stamps)]
    need(max(gaps) >= 3 and sum(1 for g in gaps if g >= 2) >= 5, "no multi-day gaps")

    # questions file shape
    n = len(qs["answers"])
    for key in ("questions", "kinds", "fact_turns", "updated"):
        need(len(qs[key]) == n, f"{key} length {len(qs[key])} != {n}")
    need(n >= 36, f"only {n} facts")
    kinds = Counter(qs["kinds"])
    for k in ("date", "amount", "name", "place", "preference"):
        need(kinds[k] >= 6, f"only {kinds[k]} facts of kind {k}")
    need(
        set(kinds) <= {"date", "amount", "name", "place", "preference", "number"},
        f"unknown kinds {set(kinds)}",
    )
    fact_langs = Counter(f["lang"] for f in FACTS)
    need(
        abs(fact_langs["ko"] - fact_langs["en"]) <= 4,
        f"fact languages unbalanced {dict(fact_langs)}",
    )
    need(sum(qs["updated"]) >= 8, f"only {sum(qs['updated'])} updated facts")

    # positions
    ft = qs["fact_turns"]
    need(max(ft) <= 300, "a fact is stated after turn 300")
    for lo, hi in ((1, 30), (30, 100), (100, 200), (200, 300)):
        need(sum(1 for x in ft if lo <= x <= hi) >= 4, f"fewer than 4 facts in turns {lo}-{hi}")

    all_text = [
        (i, role, t[role]) for i, t in enumerate(turns, 1) for role in ("user", "assistant")
    ]
    for j, f in enumerate(FACTS):
        v, turn = f["value"], f["turn"]
        need(
            qs["answers"][j] == v and qs["fact_turns"][j] == turn,
            f"fact {j}: questions file mismatch",
        )
        need(
            lang_of(turns[turn - 1]["user"]) == f["lang"],
            f"fact {v!r}: turn language != fact language",
        )
        need(lang_of(f["question"]) == f["lang"], f"fact {v!r}: question language != fact language")
        hits = [(i, role, count(v, text)) for i, role, text in all_text if count(v, text)]
        need(
            hits == [(turn, "user", 1)],
            f"answer {v!r} occurs at {hits}, expected once in turn {turn} user",
        )
        need(count(v, f["question"]) == 0, f"answer {v!r} occurs in its own question")
        # question phrased differently from the statement
        qw, sw = content_words(f["question"]), content_words(f["statement"])
        overlap = len(qw & sw) / max(1, len(qw))
        need(
            overlap <= 0.5, f"question for {v!r} copies the statement ({overlap:.0%} shared words)"
        )
        need(
            1 <= len(re.findall(r"[.!?](?:\s|$)|[.!?]$", f["statement"].strip())) <= 3,
            f"statement for {v!r} is not 1-3 sentences",
        )
        if f.get("old_turn"):
            ov, ot = f["old_value"], f["old_turn"]
            need(qs["updated"][j], f"fact {v!r} should be marked updated")
            need(
                norm(ov) not in norm(v) and norm(v) not in norm(ov),
                f"old {ov!r} and new {v!r} overlap",
            )
            need(turn - ot >= 20, f"update of {v!r} only {turn - ot} turns after the old statement")
            ohits = [(i, role, count(ov, text)) for i, role, text in all_text if count(ov, text)]
            need(
                ohits == [(ot, "user", 1)],
                f"old value {ov!r} occurs at {ohits}, expected once in turn {ot}",
            )
            need(
                lang_of(turns[ot - 1]["user"]) == f["lang"],
                f"old statement of {v!r}: wrong language",
            )
        else:
            need(not qs["updated"][j], f"fact {v!r} should not be marked updated")

    # filler after turn 300 only; no fact turns there
    fact_turn_set = {f["turn"] for f in FACTS} | {f["old_turn"] for f in FACTS if f.get("old_turn")}
    need(all(t <= 300 for t in fact_turn_set), "fact turn after 300")
    return errors


def main() -> int:
    transcript, qs = build()
    (OUT_DIR / "recall_transcript.json").write_text(
        json.dumps(transcript, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    (OUT_DIR / "recall_questions.json").write_text(
        json.dumps(qs, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )

    turns = transcript["turns"]
    lengths = [len(t["user"]) + len(t["assistant"]) for t in turns]
    ko = sum(1 for t in turns if lang_of(t["user"]) == "ko")
    print(f"turns: {len(turns)}")
    print(f"Korean turns: {ko} ({ko / len(turns):.1%})")
    print(
        f"mean turn length: {sum(lengths) / len(lengths):.1f} chars (min {min(lengths)}, max {max(lengths)})"
    )
    print(f"time span: {turns[0]['time']} .. {turns[-1]['time']}")
    print(f"facts: {len(qs['answers'])} by kind: {dict(sorted(Counter(qs['kinds']).items()))}")
    print(f"fact languages: {dict(Counter(f['lang'] for f in FACTS))}")
    print(f"updated facts: {sum(qs['updated'])}")

    errors = check(transcript, qs)
    if errors:
        print(f"\n{len(errors)} ASSERTION(S) FAILED:", file=sys.stderr)
        for e in errors:
            print("  - " + e, file=sys.stderr)
        raise AssertionError(f"{len(errors)} requirement(s) failed")
    print("all assertions passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
