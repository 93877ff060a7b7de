"""Writes the bundled sample corpora (run once; the output files are committed): ``python -m
explainer.corpus.samples._generate``.

The samples are made up for this project, not taken from any test set. Every segment is built from a small
template whose slots each have several phrasings (paraphrases). Reference 1 and reference 2 pick phrasings
independently; each "system" picks the phrasing of reference 1 with its own probability and makes its own kind of
mistakes (a wrong word, a dropped phrase, swapped phrases, an untranslated word, a missing output line), so the
systems differ in quality in the ways MT systems do. The generator is seeded: the files are reproducible.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent

# ------------------------------------------------------------------------------------------- English
# A slot is a list of phrasings of the same meaning; a template is a list of slots (or literal strings).
EN_SUBJECTS = [
    ["The city council", "The town council", "City officials"],
    ["The government", "The administration", "Ministers"],
    ["Local farmers", "Farmers in the region", "Farmers from the area"],
    ["The company", "The firm", "The business"],
    ["Researchers at the university", "University researchers", "Scientists at the university"],
    ["The national team", "The team", "The national side"],
    ["Hospital staff", "Staff at the hospital", "Hospital workers"],
    ["The museum", "The city museum", "The local museum"],
    ["Two students", "A pair of students", "Two young students"],
    ["The weather service", "Forecasters", "The national weather service"],
    ["Police", "The police", "Local police"],
    ["The school board", "The board of the school", "School officials"],
]
EN_EVENTS = [
    (["approved", "passed", "voted for"], ["a new budget", "the new budget", "a fresh budget"]),
    (["announced", "presented", "unveiled"], ["a plan to build more homes", "plans for more housing",
                                              "a plan for new housing"]),
    (["warned about", "cautioned about", "raised concerns about"], ["rising prices", "higher prices",
                                                                    "the increase in prices"]),
    (["won", "claimed", "secured"], ["the final match", "the last game", "the final"]),
    (["opened", "launched", "inaugurated"], ["a new exhibition", "a new show", "an exhibition"]),
    (["published", "released", "presented"], ["a study on sleep", "research on sleep", "a sleep study"]),
    (["asked for", "requested", "called for"], ["more time", "additional time", "an extension"]),
    (["reported", "recorded", "registered"], ["heavy rain", "strong rainfall", "heavy rainfall"]),
    (["rejected", "turned down", "refused"], ["the offer", "the proposal", "the deal"]),
    (["closed", "shut", "closed down"], ["the main road", "the main street", "the central road"]),
    (["found", "discovered", "identified"], ["a rare plant", "an unusual plant", "a rare species of plant"]),
    (["celebrated", "marked", "commemorated"], ["its anniversary", "its birthday", "the anniversary"]),
]
EN_TIMES = [
    ["on Tuesday", "on Tuesday", "this Tuesday"],
    ["last week", "last week", "the week before"],
    ["this morning", "on Monday morning", "early this morning"],
    ["after a long debate", "after a lengthy discussion", "after long discussions"],
    ["for the first time", "for the first time ever", "for the very first time"],
    ["in the spring", "this spring", "during the spring"],
    ["yesterday", "yesterday", "on Sunday"],
    ["", "", ""],
]
EN_TAILS = [
    ["", "", ""],
    [", according to a statement", ", a statement said", ", said a statement"],
    [", despite protests", ", in spite of protests", ", despite some protests"],
    [" in the capital", " in the capital city", " in the capital"],
    [", officials said", ", said officials", ", officials confirmed"],
    [" after months of work", " after several months of work", " following months of work"],
]
EN_SHORT = [
    ["Thank you very much.", "Thank you so much.", "Many thanks."],
    ["The meeting is over.", "The meeting has ended.", "The meeting is finished."],
    ["Prices went up again.", "Prices rose again.", "Prices increased once more."],
    ["Nobody was hurt.", "No one was injured.", "Nobody was injured."],
    ["Tickets are sold out.", "The tickets are sold out.", "All tickets are gone."],
]
# words a weak system gets wrong (a plausible but wrong choice), and words it leaves untranslated
EN_WRONG = {"approved": "accepted", "budget": "household", "prices": "prizes", "final": "end", "rain": "rains",
            "plant": "factory", "offer": "offering", "road": "way", "exhibition": "exposition", "study": "studying",
            "home": "house", "homes": "houses", "staff": "personnel", "week": "weeks", "team": "crew",
            "warned": "warning", "opened": "opening", "closed": "closing", "council": "advice",
            "protests": "protest", "morning": "tomorrow", "capital": "chief town"}
EN_FOREIGN = {"rain": "Regen", "prices": "Preise", "museum": "Museum", "students": "Studenten",
              "police": "Polizei", "farmers": "Bauern", "budget": "Haushalt", "plant": "Pflanze"}


def en_segment(rng: random.Random) -> list[list[str]]:
    """One segment as slots of phrasings."""
    if rng.random() < 0.08:
        return [rng.choice(EN_SHORT)]
    subj = rng.choice(EN_SUBJECTS)
    verb, obj = rng.choice(EN_EVENTS)
    time = rng.choice(EN_TIMES)
    tail = rng.choice(EN_TAILS)
    if rng.random() < 0.2 and time[0]:
        lower = [x[0].lower() + x[1:] if x.startswith(("The ", "A ")) else x for x in subj]
        slots = [[t[0].upper() + t[1:] + "," for t in time], lower, verb, obj, tail, ["."]]
    else:
        slots = [subj, verb, obj, time, tail, ["."]]
    return slots


def realise(slots: list[list[str]], choose) -> str:
    parts = [choose(k, s) for k, s in enumerate(slots)]
    text = ""
    for p in parts:
        if not p:
            continue
        if p[0] in ",." or not text:
            text += p
        elif p.startswith(" "):
            text += p
        else:
            text += " " + p
    return text.strip()


def en_system(slots, rng, quality: float, errors: float, name: str) -> str:
    def choose(k, s):
        if rng.random() < quality:
            return s[0]
        return rng.choice(s[1:]) if len(s) > 1 else s[0]

    parts = [choose(k, s) for k, s in enumerate(slots)]
    # dropped phrase (never the subject or the final period)
    if len(parts) > 3 and rng.random() < errors * 0.8:
        j = rng.randrange(1, len(parts) - 1)
        parts[j] = ""
    # two phrases swapped
    if len(parts) > 4 and rng.random() < errors * 0.6:
        j = rng.randrange(1, len(parts) - 2)
        parts[j], parts[j + 1] = parts[j + 1], parts[j]
    text = realise([[p] for p in parts], lambda k, s: s[0])
    words = text.split(" ")
    out = []
    for w in words:
        core = w.rstrip(",.")
        end = w[len(core):]
        low = core.lower()
        if low in EN_FOREIGN and rng.random() < errors * 0.5:
            core = EN_FOREIGN[low]
        elif low in EN_WRONG and rng.random() < errors * 0.6:
            rep = EN_WRONG[low]
            core = rep[0].upper() + rep[1:] if core[:1].isupper() else rep
        out.append(core + end)
    text = " ".join(out)
    if name == "weak" and rng.random() < errors * 0.15:
        text = text.rstrip(".")          # lost final punctuation
    return text


# ------------------------------------------------------------------------------------------- Chinese
ZH_SUBJECTS = [
    ["市政府", "市政府部门", "本市政府"],
    ["当地农民", "本地农民", "当地的农民"],
    ["这家公司", "该公司", "这个公司"],
    ["大学研究人员", "大学的研究人员", "高校研究人员"],
    ["国家队", "中国队", "国家代表队"],
    ["医院工作人员", "医院员工", "医护人员"],
    ["博物馆", "市博物馆", "这座博物馆"],
    ["气象部门", "气象台", "天气部门"],
    ["警方", "当地警方", "警察"],
]
ZH_EVENTS = [
    (["批准了", "通过了", "同意了"], ["新的预算", "新预算", "一项新预算"]),
    (["宣布了", "公布了", "发布了"], ["一项建房计划", "新的住房计划", "建设更多住房的计划"]),
    (["提醒", "警告", "提醒大家注意"], ["物价上涨", "价格上涨", "物价上升"]),
    (["赢得了", "拿下了", "获得了"], ["决赛", "最后一场比赛", "总决赛"]),
    (["举办了", "开幕了", "推出了"], ["一个新展览", "新的展览", "一场展览"]),
    (["发表了", "公布了", "发布了"], ["一项睡眠研究", "关于睡眠的研究", "睡眠研究报告"]),
    (["报告了", "记录到", "报道了"], ["强降雨", "大雨", "暴雨"]),
    (["拒绝了", "没有接受", "否决了"], ["这个提议", "该提议", "这项建议"]),
]
ZH_TIMES = [
    ["周二", "星期二", "本周二"],
    ["上周", "上个星期", "上周"],
    ["今天上午", "今天早上", "今早"],
    ["经过长时间讨论后", "经过长时间的讨论", "在长时间讨论之后"],
    ["首次", "第一次", "头一次"],
    ["", "", ""],
]
ZH_TAILS = [
    ["", "", ""],
    ["，据一份声明称", "，一份声明说", "，声明表示"],
    ["，尽管有人抗议", "，虽然有抗议", "，尽管遭到抗议"],
    ["，官员表示", "，官员说", "，有关官员称"],
]
ZH_WRONG = {"预算": "预料", "物价": "东西价", "决赛": "决定赛", "展览": "展示", "研究": "研讨", "降雨": "下水",
            "提议": "提出"}


def zh_segment(rng: random.Random) -> list[list[str]]:
    subj = rng.choice(ZH_SUBJECTS)
    verb, obj = rng.choice(ZH_EVENTS)
    time = rng.choice(ZH_TIMES)
    tail = rng.choice(ZH_TAILS)
    return [subj, time, verb, obj, tail, ["。"]]


def zh_realise(parts) -> str:
    return "".join(parts)


def zh_system(slots, rng, quality: float, errors: float) -> str:
    parts = [s[0] if rng.random() < quality else rng.choice(s[1:]) if len(s) > 1 else s[0] for s in slots]
    if rng.random() < errors * 0.7:
        j = rng.randrange(1, len(parts) - 1)
        parts[j] = ""
    if rng.random() < errors * 0.5:
        j = rng.randrange(1, len(parts) - 2)
        parts[j], parts[j + 1] = parts[j + 1], parts[j]
    text = zh_realise(parts)
    for a, b in ZH_WRONG.items():
        if a in text and rng.random() < errors * 0.6:
            text = text.replace(a, b)
    return text


# --------------------------------------------------------------------------------------------- write
def write(sample: str, meta: dict, refs: dict[str, list[str]], systems: dict[str, list[str]]) -> None:
    d = HERE / sample
    d.mkdir(exist_ok=True)
    files = {"references": [], "systems": []}
    for name, lines in refs.items():
        (d / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        files["references"].append(f"{name}.txt")
    for name, lines in systems.items():
        (d / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        files["systems"].append(f"{name}.txt")
    (d / "sample.json").write_text(json.dumps(dict(meta, files=files), ensure_ascii=False, indent=1) + "\n",
                                   encoding="utf-8")


def main() -> None:
    rng = random.Random(20241125)
    segs = [en_segment(rng) for _ in range(300)]
    r1, r2 = random.Random(1), random.Random(2)
    # each reference picks the first ("literal") phrasing half of the time, another one otherwise
    ref1 = [realise(s, lambda k, x: x[0] if r1.random() < 0.5 or len(x) == 1 else r1.choice(x[1:])) for s in segs]
    ref2 = [realise(s, lambda k, x: x[0] if r2.random() < 0.3 or len(x) == 1 else r2.choice(x[1:])) for s in segs]
    sys_rng = {n: random.Random(100 + i) for i, n in enumerate(("baseline", "new-model", "small-model"))}
    baseline = [en_system(s, sys_rng["baseline"], 0.60, 0.35, "baseline") for s in segs]
    new_model = [en_system(s, sys_rng["new-model"], 0.66, 0.28, "new-model") for s in segs]
    small = [en_system(s, sys_rng["small-model"], 0.45, 0.80, "weak") for s in segs]
    # a real system's failures: an empty output line, and a segment where the output copies reference 1
    small[41] = ""
    new_model[17] = ref1[17]
    write("news-en", {"title": "English news (300 segments, 2 references, 3 systems)",
                      "description": "Made-up news sentences with two independent reference translations and three "
                                     "systems: a baseline, a new model that is a little better, and a small model "
                                     "that is much worse (it leaves segment 42 empty).",
                      "language": "en", "settings": {}},
          {"ref.1": ref1, "ref.2": ref2}, {"baseline": baseline, "new-model": new_model, "small-model": small})

    rng = random.Random(7)
    zsegs = [zh_segment(rng) for _ in range(200)]
    z2 = random.Random(3)
    z1 = random.Random(4)
    zref = [zh_realise([x[0] if z1.random() < 0.5 or len(x) == 1 else z1.choice(x[1:]) for x in s]) for s in zsegs]
    zref2 = [zh_realise([z2.choice(x[1:]) if len(x) > 1 else x[0] for x in s]) for s in zsegs]
    za = random.Random(11)
    zb = random.Random(12)
    sys_a = [zh_system(s, za, 0.75, 0.15) for s in zsegs]
    sys_b = [zh_system(s, zb, 0.45, 0.6) for s in zsegs]
    write("news-zh", {"title": "Chinese news (200 segments, 2 references, 2 systems)",
                      "description": "Made-up Chinese news sentences (no spaces between words): score them with "
                                     "sacreBLEU's zh tokenizer, which splits every Chinese character. Two systems: "
                                     "system-a is better than system-b.",
                      "language": "zh", "settings": {"bleu": {"tokenize": "zh"}}},
          {"ref.1": zref, "ref.2": zref2}, {"system-a": sys_a, "system-b": sys_b})


if __name__ == "__main__":
    main()
