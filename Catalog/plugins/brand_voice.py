#!/usr/bin/env python3
"""brand-voice: a tipcat lint plugin (protocol tipcat.plugin/1) in plain Python, standard library only.

Flags wording the house style replaces, in every source text (title, message, action titles) and, when the
option "locales" lists them, in translations. Options:
  "replace":  {"phrase": "preferred", ...}   whole-word, case-insensitive
  "severity": "warning" (default), "error" or "note"
  "locales":  ["en", ...] also check these translations (default: the source language only)
"""
import json
import re
import sys

PROTOCOL = "tipcat.plugin/1"


def answer(response):
    response["protocol"] = PROTOCOL
    json.dump(response, sys.stdout)
    sys.stdout.write("\n")


def main():
    request = json.load(sys.stdin)
    if request.get("protocol") != PROTOCOL:
        sys.exit(f"brand-voice speaks {PROTOCOL}, not {request.get('protocol')}")
    if request["kind"] == "describe":
        return answer({"description": {
            "name": "brand-voice", "version": "1.0.0", "kinds": ["lint"],
            "summary": "House wording: phrases the style guide replaces",
            "options": {"type": "object", "properties": {
                "replace": {"type": "object", "additionalProperties": {"type": "string"}},
                "severity": {"enum": ["error", "warning", "note"]},
                "locales": {"type": "array", "items": {"type": "string"}}}}}})
    options = request.get("options", {})
    severity = options.get("severity", "warning")
    patterns = [(re.compile(r"\b" + re.escape(phrase) + r"\b", re.IGNORECASE), phrase, better)
                for phrase, better in options.get("replace", {}).items()]
    locales = set(options.get("locales", []))
    findings = []
    for tip in request["catalog"]["tips"]:
        texts = [tip["title"]] + ([tip["message"]] if "message" in tip else []) + [a["title"] for a in tip["actions"]]
        for text in texts:
            candidates = [(text["text"], text["at"])]
            candidates += [(t["text"], t["at"]) for locale, t in text["translations"].items() if locale in locales]
            for value, place in candidates:
                for pattern, phrase, better in patterns:
                    if pattern.search(value):
                        findings.append({"severity": severity, "rule": "wording",
                                         "message": f"say '{better}', not '{phrase}' ({tip['id']})",
                                         "file": place["file"], "pointer": place["pointer"]})
    answer({"diagnostics": findings})


main()
