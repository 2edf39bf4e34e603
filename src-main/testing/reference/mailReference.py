#!/usr/bin/python3
"""
The reference for the mail pack's real-world fixtures: Python's own mailbox and email modules (standard library, no
package) read src-main/tools/builtin/mail/fixtures/real/ and write golden.json there, which mailReal.test.ts compares
Homebody's mail_inbox and mail_read with. Tests never run this; CI needs no Python.

Regenerate after changing the fixtures (Debian's python3; any Python 3.11+ does):

    /usr/bin/python3 src-main/testing/reference/mailReference.py

What each message gets:
- id: Homebody's id worked out from what Python found. Maildir: the key (the file's name before ":"). mbox: "m", the
  key (its place, from 0), "-", and the first 10 hex digits of SHA-256 over the message's length in bytes, a newline,
  and its bytes (From_ line included, as mailbox.mbox's table of contents delimits it; the first 8 MiB).
- from, to: [display name, address] pairs (email.policy.default's address headers).
- subject: the decoded Subject; date: parsedate_to_datetime of the first Date header as ISO 8601 UTC, null when it has
  none or Python cannot read it (a date without a known zone is read as UTC, as RFC 5322 says of -0000).
- text: the body get_body(('plain', 'html')) picks, decoded; for HTML, the words of its text. null when Python fails.
The Maildir is copied to a temporary folder first, with ":2,S" added to the names in cur/ as a mail program leaves
them (a name with ":" cannot be committed for Windows checkouts); the test does the same.
"""
import datetime
import email
import email.policy
import email.utils
import hashlib
import html.parser
import json
import mailbox
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.normpath(os.path.join(HERE, '..', '..', 'tools', 'builtin', 'mail', 'fixtures', 'real'))
MAX_MESSAGE_BYTES = 8 * 1024 * 1024


class Words(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ('style', 'script', 'head'):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ('style', 'script', 'head') and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def iso(value):
    if value is None:
        return None
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except Exception:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    utc = moment.astimezone(datetime.timezone.utc)
    return utc.strftime('%Y-%m-%dT%H:%M:%S.000Z').rjust(24, '0')


def addresses(message, name):
    try:
        header = message[name]
        if header is None:
            return []
        return [[a.display_name, a.addr_spec] for a in header.addresses]
    except Exception as error:
        return {'error': repr(error)}


def text_of(message):
    try:
        body = message.get_body(preferencelist=('plain', 'html'))
        if body is None:
            return None, None
        content = body.get_content()
        if body.get_content_type() == 'text/html':
            words = Words()
            words.feed(content)
            return 'html', ' '.join(' '.join(words.parts).split())
        return 'plain', content
    except Exception as error:
        return 'error', repr(error)


def describe(key_id, raw_message_bytes):
    message = email.message_from_bytes(raw_message_bytes, policy=email.policy.default)
    raw_dates = message.get_all('Date', failobj=[])
    try:
        subject = message['Subject']
        subject = None if subject is None else str(subject)
    except Exception as error:
        subject = {'error': repr(error)}
    kind, text = text_of(message)
    return {
        'id': key_id,
        'from': addresses(message, 'From'),
        'to': addresses(message, 'To'),
        'subject': subject,
        'date': iso(str(raw_dates[0])) if raw_dates else None,
        'textKind': kind,
        'text': text,
    }


def maildir_golden():
    work = tempfile.mkdtemp(prefix='hb-mail-ref-')
    try:
        root = os.path.join(work, 'Maildir')
        for sub in ('cur', 'new', 'tmp'):
            os.makedirs(os.path.join(root, sub))
        for sub in ('cur', 'new'):
            for name in sorted(os.listdir(os.path.join(FIXTURES, 'maildir', sub))):
                target = name + ':2,S' if sub == 'cur' else name
                shutil.copyfile(os.path.join(FIXTURES, 'maildir', sub, name), os.path.join(root, sub, target))
        box = mailbox.Maildir(root, factory=None, create=False)
        return [describe(key, box.get_bytes(key)) for key in sorted(box.keys())]
    finally:
        shutil.rmtree(work)


def mbox_golden():
    path = os.path.join(FIXTURES, 'inbox.mbox')
    box = mailbox.mbox(path, factory=None, create=False)
    box._lookup()  # builds the table of contents
    with open(path, 'rb') as handle:
        data = handle.read()
    out = []
    for key in sorted(box.keys()):
        start, stop = box._toc[key]
        raw = data[start:stop]
        digest = hashlib.sha256(f'{len(raw)}\n'.encode() + raw[:MAX_MESSAGE_BYTES]).hexdigest()[:10]
        out.append(describe(f'm{key}-{digest}', box.get_bytes(key)))
    return out


def clean(value):
    """Bytes Python could not decode come back as lone surrogates: written as U+FFFD (the test then compares that
    field's ASCII letters only, since mailparser decodes such bytes in its own way)."""
    if isinstance(value, str):
        return value.encode('utf-8', 'surrogateescape').decode('utf-8', 'replace') if any(
            0xDC80 <= ord(c) <= 0xDCFF for c in value) else value
    if isinstance(value, list):
        return [clean(v) for v in value]
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    return value


def main():
    golden = {
        'generatedBy': 'src-main/testing/reference/mailReference.py with Python ' + sys.version.split()[0],
        'notes': [
            'mbox text: Homebody removes one ">" from body lines that read ">From " (mboxrd, as the file was written: '
            'the sender wrote "From "); mailbox.mbox keeps it. The test compares after that one change.',
            'HTML-only mail: Homebody gives mailparser\'s text of the HTML, Python the HTML itself; the test compares '
            'the words of Python\'s HTML (golden "text") with Homebody\'s text, word for word in order.',
            'A message file that starts with a "From " line (mbox style, in a Maildir): Python reads that line as the '
            'envelope; mailparser reads it as a broken header line and goes on with the next, so headers agree.',
        ],
        'maildir': maildir_golden(),
        'mbox': mbox_golden(),
    }
    with open(os.path.join(FIXTURES, 'golden.json'), 'w', encoding='utf-8') as handle:
        json.dump(clean(golden), handle, ensure_ascii=False, indent=1)
        handle.write('\n')


if __name__ == '__main__':
    main()
