"""Real-looking text for the parity tests of the dialects of issue 22 (and for scripts/record_torchmetrics.py):
Japanese, Korean and Chinese news sentences (a system output and a reference written independently, as MT and
summarisation test sets have them) and English multi-sentence summaries with the punctuation, numbers and
abbreviations that the packages split differently. Written for these tests; no outside source."""
from __future__ import annotations

#: (candidate, reference) Japanese news sentences
JA_NEWS = [
    ("政府は来年度の予算案を閣議決定し、一般会計の総額は過去最大となった。",
     "政府は来年度予算案を閣議で決定した。一般会計の総額は過去最大の規模となる。"),
    ("東京株式市場では日経平均株価が三日ぶりに反落し、終値は前日比二百円安だった。",
     "東京株式市場で日経平均株価は3日ぶりに反落し、前日比200円安で取引を終えた。"),
    ("気象庁によると、台風10号は今夜にも九州南部に接近する見込みです。",
     "気象庁は、台風10号が今夜、九州南部に接近するおそれがあると発表した。"),
    ("新しい研究で、睡眠不足が記憶力の低下につながることが分かりました。",
     "睡眠が足りないと記憶力が落ちることが、新たな研究で明らかになった。"),
]

#: (candidate, reference) Korean news sentences
KO_NEWS = [
    ("정부는 내년도 예산안을 국무회의에서 의결했다.", "정부는 국무회의를 열고 내년 예산안을 의결했습니다."),
    ("서울의 아침 기온이 영하 10도까지 떨어졌다.", "오늘 아침 서울의 기온은 영하 10도까지 내려갔습니다."),
    ("한국은행은 기준금리를 동결하기로 결정했다.", "한국은행이 기준금리를 현 수준에서 동결했다."),
]

#: (candidate, reference) Chinese news sentences (several sentences each: rouge-chinese cuts them after 。！？)
ZH_NEWS = [
    ("新华社北京3月5日电 国务院总理在政府工作报告中指出，今年经济增长目标为百分之五左右。报告还强调要扩大内需。",
     "国务院总理5日在政府工作报告中提出，今年国内生产总值增长预期目标为5%左右。报告强调，要着力扩大国内需求。"),
    ("据气象台预报，明天北京将有中到大雨，气温明显下降。市民出行请注意安全！",
     "气象部门预计，北京明天有中到大雨，气温将明显下降。提醒市民注意出行安全。"),
    ("研究人员发现，每天步行三十分钟可以显著降低心脏病的风险。这项研究持续了十年。",
     "一项持续十年的研究发现，每天走路半小时能明显减少患心脏病的风险。"),
    ("他说：“我们会继续努力。”随后离开了会场……记者没有得到进一步的回应。",
     "他表示：“我们将继续努力。”之后他离开了会场，没有回答记者的提问。"),
]

#: (candidate, references) English multi-sentence summaries, one sentence per line where a summariser writes them so
EN_SUMMARIES = [
    ("The U.S. economy grew 2.5% in the third quarter.\nConsumer spending rose for the fourth month in a row.",
     ["The US economy expanded at a 2.5 percent rate in the third quarter.\nConsumer spending increased again, "
      "for a fourth straight month.",
      "Growth reached 2.5% in Q3, driven by consumer spending."]),
    ("Heavy rain flooded parts of the city on Monday. Schools were closed, and about 2,000 homes lost power.",
     ["Flooding hit parts of the city after heavy rain on Monday. Schools closed and around 2,000 homes were left "
      "without power."]),
    ("Scientists found that the drug reduced symptoms in 60% of patients. The trial lasted six months. "
     "Side effects were mild.",
     ["In a six-month trial, the drug eased symptoms for 60 percent of patients, with only mild side effects.",
      "The drug reduced symptoms in most patients.\nSide effects were mild."]),
    ("The team won the final 3-1. Their captain scored twice, and the coach praised the defence.",
     ["The captain scored two goals as the team won the final 3-1.\nThe coach praised the defence."]),
    ("Apple said iPhone sales fell 5% last quarter. Revenue from services rose to a record $24.2 billion.",
     ["iPhone sales dropped 5 percent, Apple said. Services revenue hit a record $24.2 billion.",
      "Apple reported lower iPhone sales but record services revenue."]),
    ("the cat sat on the mat. the cat was happy. the mat was red.",
     ["a cat sat on the red mat. the cat was very happy."]),
]
