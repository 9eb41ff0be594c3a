// The Python + Jinja2 side of the whole-process render comparison; `RenderProcessBench` writes it to the bench
// directory and runs it with python3.
let renderJinjaScript = ##"""
# What `tipcat render --all --style STYLE --locale LOCALE --width WIDTH` does, with Python and Jinja2, as one
# process: load the catalog's JSON files, resolve each tip's texts for the locale (translations from
# Localizable.xcstrings, ICU placeholders and plurals filled from the tip's example), escape them for the style,
# wrap by terminal display width and render the built-in style's layout with Jinja2 templates.
#
# Usage: python3 render_jinja.py CATALOG STYLE LOCALE WIDTH  (STYLE: plain, markdown or ansi; ansi in colour)
#
# It covers what the generated benchmark catalog uses: texts without inline Markdown, plural rules of the
# locales in PLURALS, grapheme clusters made of a base and combining marks, variation selectors, ZWJ sequences
# and emoji modifiers. The bench compares its output with tipcat's byte for byte before timing it.
import json
import os
import re
import sys
import unicodedata

import jinja2

# CLDR plural category of an integer, for the locales this script knows.
PLURALS = {
    "en": lambda n: "one" if n == 1 else "other",
    "de": lambda n: "one" if n == 1 else "other",
    "fr": lambda n: "one" if n in (0, 1) else ("many" if n != 0 and n % 1000000 == 0 else "other"),
    "ja": lambda n: "other",
    "zh-Hans": lambda n: "other",
    "ko": lambda n: "other",
}

# --- display width -------------------------------------------------------------------------------------------

def scalar_columns(ch):
    o = ord(ch)
    if o < 0x7F:
        return 1 if o >= 0x20 else 0
    if o < 0xA0:
        return 0
    if o == 0xAD or unicodedata.category(ch) in ("Mn", "Me", "Cf") or 0xFE00 <= o <= 0xFE0F:
        return 0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 2
    return 1


def joins_previous(ch):
    """Whether `ch` belongs to the grapheme cluster before it (marks, ZWJ, selectors, skin tones)."""
    o = ord(ch)
    return (unicodedata.category(ch) in ("Mn", "Me", "Mc") or o == 0x200D or 0xFE00 <= o <= 0xFE0F
            or 0x1F3FB <= o <= 0x1F3FF or 0xE0020 <= o <= 0xE007F)


def cluster_width(cluster):
    width = scalar_columns(cluster[0])
    for ch in cluster[1:]:
        if ch != "\ufe0f" and width < 2:
            width = max(width, scalar_columns(ch))
    if "\ufe0f" in cluster[1:] and width < 2 and unicodedata.category(cluster[0]) == "So":
        return 2
    return width


ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def segments(text):
    """(kind, text, width, base) for each escape sequence, space, newline and grapheme cluster."""
    out = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\x1b":
            m = ESCAPE.match(text, i)
            if m:
                out.append(("escape", m.group(), 0, 0))
                i = m.end()
                continue
        if ch == " ":
            out.append(("space", ch, 1, 0x20))
            i += 1
            continue
        if ch == "\n":
            out.append(("newline", ch, 0, 0x0A))
            i += 1
            continue
        j = i + 1
        while j < n and (joins_previous(text[j]) or text[j - 1] == "\u200d"):
            j += 1
        cluster = text[i:j]
        out.append(("cluster", cluster, cluster_width(cluster), ord(ch)))
        i = j
    return out


def display_width(text):
    return sum(s[2] for s in segments(text))

# --- line breaking -------------------------------------------------------------------------------------------

NO_START = set(map(ord, "!%),.:;?]}’”…‥‼⁇⁈⁉、。々〻〉》」』】〕〗〙〛〞〟ぁぃぅぇぉっゃゅょゎゕゖゝゞ゠ァィゥェォッャュョヮヵヶ・ーヽヾ"
                        "！％），．：；？］｝｠｡｣､･ｰﾞﾟ")) | set(range(0x31F0, 0x3200))
NO_END = set(map(ord, "([{‘“〈《「『【〔〖〘〚〝（［｛｟｢"))


def allows_break(prev, nxt):
    if nxt[2] == 0:
        return False
    if prev[3] == 0x200B:
        return True
    if prev[2] != 2 and nxt[2] != 2:
        return False
    return nxt[3] not in NO_START and prev[3] not in NO_END


def fits_unchanged(text, width):
    data = text.encode()
    return (0 < len(data) <= width and text[0] != " " and text[-1] != " "
            and not any(b < 0x20 or b == 0x7F or b == 0xC2 for b in data))


def wrap_lines(text, width):
    """Greedy wrap by display width: breaks at spaces and between wide clusters (kinsoku rules kept); a word
    wider than the line breaks between clusters; escape sequences take no room; newlines end paragraphs."""
    width = max(1, width)
    if fits_unchanged(text, width):
        return [text]
    segs = []
    prev = None
    for s in segments(text):
        brk = False
        if s[0] == "cluster":
            if prev is not None and allows_break(prev, s):
                brk = True
            prev = s
        elif s[0] in ("space", "newline"):
            prev = None
        segs.append((s[0], s[1], s[2], s[3], brk))
    lines = []

    def visible(s):
        return s[0] == "cluster" and s[2] > 0

    def escapes_start(index):
        while index > 0 and segs[index - 1][0] == "escape":
            index -= 1
        return index

    def emit(lo, hi, keep_leading):
        head, lead = lo, []
        if not keep_leading:
            while head < hi and not visible(segs[head]):
                if segs[head][0] != "space":
                    lead.append(segs[head][1])
                head += 1
        tail, trail = hi, []
        while tail > head and not visible(segs[tail - 1]):
            if segs[tail - 1][0] != "space":
                trail.append(segs[tail - 1][1])
            tail -= 1
        lines.append("".join(lead) + "".join(s[1] for s in segs[head:tail]) + "".join(reversed(trail)))

    def paragraph(lo, hi):
        start, first = lo, True
        while True:
            used, keep, has_visible, break_at, overflow = 0, first, False, -1, -1
            i = start
            while i < hi:
                kind, _, columns, _, brk = segs[i]
                if kind == "space":
                    if has_visible:
                        if segs[i - 1][0] != "space":
                            break_at = i
                        used += 1
                    elif keep:
                        used += 1
                elif kind == "cluster":
                    if columns > 0:
                        if not has_visible and keep and used + columns > width:
                            keep, used = False, 0
                        if has_visible:
                            if brk:
                                break_at = escapes_start(i)
                            if used + columns > width:
                                overflow = i
                                break
                        has_visible = True
                    used += columns
                i += 1
            if overflow < 0:
                emit(start, hi, keep)
                return
            end = break_at if break_at >= 0 else escapes_start(overflow)
            emit(start, end, keep)
            start, first = end, False

    start = 0
    for i in range(len(segs) + 1):
        if i == len(segs) or segs[i][0] == "newline":
            paragraph(start, i)
            start = i + 1
    return lines

# --- escaping and styles ---------------------------------------------------------------------------------------

UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text):
    return UNSAFE.sub(lambda m: "    " if m.group() == "\t" else "", text)


MD_PUNCT = re.compile(r"""([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])""")


def markdown_literal(text):
    text = terminal_safe(text).rstrip("\n")
    out = []
    for number, line in enumerate(text.split("\n")):
        body = MD_PUNCT.sub(r"\\\1", line)
        if body and unicodedata.category(body[0]) == "Zs":
            body = "&#%d;" % ord(body[0]) + body[1:]
        out.append(body)
    if out[-1] and unicodedata.category(out[-1][-1]) == "Zs":
        out[-1] = out[-1][:-1] + "&#%d;" % ord(out[-1][-1])
    return "\\\n".join(out)


RESET = "\x1b[0m"
ROLES = {"title": "1", "message": "", "icon": "1;36", "button": "1;97;44", "border": "90", "dim": "2"}


def apply_style(text, parameters):
    """SGR around every non-empty line; re-opened after a full reset inside a line."""
    if not parameters or not text:
        return text
    opening = "\x1b[" + parameters + "m"
    lines = []
    for line in text.split("\n"):
        if line:
            line = opening + line.replace("\x1b[0m", "\x1b[0m" + opening) + RESET
        lines.append(line)
    return "\n".join(lines)


SGR = re.compile(r"\x1b\[([0-?]*)[ -/]*m")


def reflow_styles(lines):
    """A style open at a line's end is closed there and reopened on the next line."""
    active, out = [], []
    for line in lines:
        prefix = "".join(active)
        for m in SGR.finditer(line):
            if m.group(1) in ("", "0"):
                active = []
            else:
                active.append(m.group())
        out.append(prefix + line + (RESET if active else ""))
    return out


def wrap_filter(width):
    def wrap(text):
        if fits_unchanged(text, width):
            return text
        lines = wrap_lines(text, width)
        return "\n".join(reflow_styles(lines) if "\x1b" in text else lines)
    return wrap


def card_filter(width):
    width = min(width, 72)
    inner = width - 4
    border = lambda text: apply_style(text, ROLES["border"])
    top = border("╭" + "─" * (width - 2) + "╮") + "\n"
    bottom = border("╰" + "─" * (width - 2) + "╯") + "\n"
    left, right = border("│") + " ", " " + border("│") + "\n"

    def card(text):
        text = text.strip("\n")
        lines = wrap_lines(text, inner)
        if "\x1b" in text:
            lines = reflow_styles(lines)
        out = [top]
        for line in lines:
            out.append(left + line + " " * max(0, inner - display_width(line)) + right)
        out.append(bottom)
        return "".join(out)
    return card

# --- templates (the layouts of Templates/plain, Templates/markdown and Templates/ansi) ---------------------------

TEMPLATES = {
    "plain": (
        "{% filter wrap %}{% if image %}({{ image }}) {% endif %}{{ title }}{% endfilter %}\n"
        "{% if message %}{% filter wrap %}{{ message }}{% endfilter %}\n{% endif %}"
        "{% if actions %}{% filter wrap %}{% for a in actions %}[ {{ a }} ]{% if not loop.last %} {% endif %}"
        "{% endfor %}{% endfilter %}\n{% endif %}"
    ),
    "markdown": (
        "> [!TIP]\n> **{{ title }}**\n"
        "{% if message %}>\n> {{ message }}\n{% endif %}"
        "{% if actions %}>\n{% for a in actions %}> - {{ a }}\n{% endfor %}{% endif %}"
    ),
    "ansi": (
        "{% filter card %}"
        "{% if image %}{% filter role('icon') %}◆ {{ image }}{% endfilter %}\n{% endif %}"
        "{% filter role('title') %}{{ title }}{% endfilter %}\n"
        "{% if message %}{% filter role('message') %}{{ message }}{% endfilter %}\n{% endif %}"
        "{% if actions %}\n{% for a in actions %}{% filter role('button') %}\u00a0{{ a }}\u00a0{% endfilter %}"
        "{% if not loop.last %}  {% endif %}{% endfor %}\n{% endif %}"
        "{% endfilter %}"
    ),
}

# --- catalog and resolution ------------------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"\{\s*([A-Za-z_][\w.]*)\s*(?:,\s*plural\s*,)?")


def lookup(example, path):
    value = example
    for part in path.split("."):
        value = value[part]
    return value


def format_message(text, example, plural):
    """ICU message subset: {name.path} placeholders and {n, plural, category {… # …} …}."""
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch != "{":
            out.append(ch)
            i += 1
            continue
        m = PLACEHOLDER.match(text, i)
        name = m.group(1)
        if "plural" not in m.group():
            end = text.index("}", i)
            out.append(str(lookup(example, name)))
            i = end + 1
            continue
        number = lookup(example, name)
        i = m.end()
        forms = {}
        while True:
            while text[i] == " ":
                i += 1
            if text[i] == "}":
                i += 1
                break
            key_end = text.index("{", i)
            key = text[i:key_end].strip()
            depth, j = 1, key_end + 1
            while depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            forms[key] = text[key_end + 1:j - 1]
            i = j
        form = forms.get("=%d" % number) or forms.get(plural(number)) or forms["other"]
        out.append(format_message(form.replace("#", str(number)), example, plural))
    return "".join(out)


def main():
    root, style, locale, width = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    with open(os.path.join(root, "catalog.json"), "rb") as f:
        settings = json.load(f)
    for name in ("parameters.json", "events.json", "groups.json"):  # read as tipcat reads them; not needed here
        with open(os.path.join(root, name), "rb") as f:
            json.load(f)
    with open(os.path.join(root, "Localizable.xcstrings"), "rb") as f:
        strings = json.load(f)["strings"]
    tips_dir = os.path.join(root, "tips")
    tips = []
    for name in sorted(os.listdir(tips_dir)):
        if name.endswith(".json"):
            with open(os.path.join(tips_dir, name), "rb") as f:
                tips.append(json.load(f))
    source = settings["sourceLanguage"]
    plural = PLURALS[locale]

    def text(key, fallback):
        if locale != source:
            unit = strings.get(key, {}).get("localizations", {}).get(locale, {}).get("stringUnit")
            if unit and unit.get("state") == "translated":
                return unit["value"]
        return fallback

    escape = markdown_literal if style == "markdown" else terminal_safe
    env = jinja2.Environment(autoescape=False, keep_trailing_newline=True, finalize=lambda v: v)
    env.filters["wrap"] = wrap_filter(width)
    env.filters["card"] = card_filter(width)
    env.filters["role"] = lambda value, role: apply_style(value, ROLES[role])
    template = env.from_string(TEMPLATES[style])
    rendered = []
    for tip in tips:
        example = tip.get("example", {})
        tid = tip["id"]
        resolve = lambda key, value: escape(format_message(text(key, value), example, plural))
        context = {
            "image": escape(tip.get("image", "")),
            "title": resolve(tid + ".title", tip["title"]),
            "message": resolve(tid + ".message", tip["message"]) if tip.get("message") else "",
            "actions": [resolve("%s.action.%s" % (tid, a["id"]), a["title"]) for a in tip.get("actions", [])],
        }
        rendered.append(template.render(context))
    out = "\n".join(rendered)
    if style != "ansi":
        out = terminal_safe(out)
    sys.stdout.buffer.write(out.encode())


main()
"""##
