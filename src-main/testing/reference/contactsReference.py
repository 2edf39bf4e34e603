#!/usr/bin/python3
"""
The reference reading of the contacts pack's real-world .vcf fixtures: python's vobject reads every file in
src-main/tools/builtin/contacts/fixtures/real (and written/ below it) and writes, next to each, <name>.golden.json
with the cards it found: FN, N, and each EMAIL and TEL with its types. contactsReal.test.ts compares Homebody's
reading with these files; CI never runs vobject.

Regenerate (Debian's package; the pyenv python on PATH may not see it):
    apt-get install -y python3-vobject
    npx tsx src-main/testing/reference/contactsWritten.ts     # the files Homebody's writes produce, first
    /usr/bin/python3 src-main/testing/reference/contactsReference.py

How vobject is asked: readComponents(text, ignoreUnreadable=True, allowQP=True), so lines it cannot parse are
skipped (as Homebody skips them) and 2.1's quoted-printable soft line breaks are joined. Where vobject fails on a
whole file, each card is read on its own (split on BEGIN:VCARD / END:VCARD lines), and a card it still cannot read
is kept as {"error": ...}. A file's bytes are UTF-8 (a byte order mark dropped) or, failing that, Windows-1252.

Normalised, not judged: types are lower case, comma lists split, each once, sorted (vobject keeps TYPE="a,b" as
one value; RFC 6350 means two). Everything else is vobject's own value.

Where Homebody and vobject disagree and Homebody is right, the golden file's "notes" say so, case by case; they are
written by hand and kept when this script runs again. A note names the card (from 0), the field ("fn", "n",
"emails", "phones" or "card"), vobject's value, Homebody's, and why.
"""
import json
import logging
import os
import sys

import vobject

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
FIXTURES = os.path.join(ROOT, "src-main", "tools", "builtin", "contacts", "fixtures", "real")

# vobject logs each line it skips; the golden files say what matters.
logging.disable(logging.CRITICAL)


def decode(data):
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def types_of(line):
    found = []
    for value in line.params.get("TYPE", []) + line.singletonparams:
        for part in value.split(","):
            part = part.strip().lower()
            if part and part not in found:
                found.append(part)
    return sorted(found)


def joined(value):
    if isinstance(value, list):
        return " ".join(v.strip() for v in value if v.strip())
    return (value or "").strip()


def card_of(component):
    contents = component.contents
    fn = contents.get("fn", [None])[0]
    n = contents.get("n", [None])[0]
    card = {"fn": fn.value.strip() if fn is not None and fn.value.strip() else None}
    if n is not None:
        name = n.value
        card["n"] = [joined(name.family), joined(name.given), joined(name.additional), joined(name.prefix),
                     joined(name.suffix)]
    else:
        card["n"] = None
    card["emails"] = [{"value": e.value.strip(), "types": types_of(e)} for e in contents.get("email", [])
                      if e.value.strip()]
    card["phones"] = [{"value": t.value.strip(), "types": types_of(t)} for t in contents.get("tel", [])
                      if t.value.strip()]
    return card


def split_cards(text):
    """Top-level cards as text, for reading one at a time when vobject fails on the whole file."""
    cards, current, depth = [], None, 0
    for line in text.splitlines(keepends=True):
        word = line.strip().upper()
        if word == "BEGIN:VCARD":
            if current is None:
                current = []
            depth += 1
        if current is not None:
            current.append(line)
        if word == "END:VCARD" and current is not None:
            depth -= 1
            if depth == 0:
                cards.append("".join(current))
                current = None
    return cards


def read(text):
    try:
        return "whole file", [card_of(c) for c in vobject.readComponents(text, ignoreUnreadable=True, allowQP=True)]
    except Exception as whole:  # vobject raises many kinds; each is a reason to try card by card
        cards = []
        for chunk in split_cards(text):
            try:
                cards.extend(card_of(c) for c in vobject.readComponents(chunk, ignoreUnreadable=True, allowQP=True))
            except Exception as err:
                cards.append({"error": f"{type(err).__name__}: {err}"[:300]})
        return f"card by card (on the whole file vobject failed: {type(whole).__name__}: {str(whole)[:200]})", cards


def main():
    folders = [FIXTURES, os.path.join(FIXTURES, "written")]
    count = 0
    for folder in folders:
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".vcf"):
                continue
            path = os.path.join(folder, name)
            golden_path = path[: -len(".vcf")] + ".golden.json"
            notes = []
            if os.path.exists(golden_path):
                with open(golden_path, encoding="utf-8") as f:
                    notes = json.load(f).get("notes", [])
            with open(path, "rb") as f:
                how, cards = read(decode(f.read()))
            golden = {
                "file": name,
                "reference": f"python3-vobject {getattr(vobject, '__version__', '0.9.6.1')}, readComponents("
                             "ignoreUnreadable=True, allowQP=True)",
                "read": how,
                "cards": cards,
                "notes": notes,
            }
            with open(golden_path, "w", encoding="utf-8") as f:
                json.dump(golden, f, ensure_ascii=False, indent=2)
                f.write("\n")
            count += 1
    print(f"wrote {count} golden files", file=sys.stderr)


if __name__ == "__main__":
    main()
