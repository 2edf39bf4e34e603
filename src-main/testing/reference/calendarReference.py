#!/usr/bin/python3
"""Golden occurrence listings for the calendar pack's real-world fixtures, from a reference in another language.

For each .ics file in src-main/tools/builtin/calendar/fixtures/real/ and each month named for it in MONTHS, this
lists the occurrences python's icalendar + recurring-ical-events find in Europe/Berlin, and writes them to
fixtures/real/golden/<file>.json. calendarReal.test.ts compares Homebody's listing with these files, so the tests
need neither Python nor these packages (CI installs neither).

Regenerate (Debian's packages; the pyenv python on PATH may not see them):

    apt-get install -y python3-icalendar python3-recurring-ical-events
    /usr/bin/python3 src-main/testing/reference/calendarReference.py

When the reference fails on a whole file (one bad event is enough for it too), each UID is listed on its own and
the ones it cannot read are named in "skippedUids". A golden file's "notes" are kept across runs: each one is an occurrence where Homebody and the reference disagree
and Homebody is right, with why. The test holds Homebody to the reference everywhere else.
"""
import datetime
import json
import os
import signal
import subprocess
import sys

import icalendar
import icalendar.timezone_cache
import pytz
import recurring_ical_events

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
FIXTURES = os.path.join(ROOT, 'src-main', 'tools', 'builtin', 'calendar', 'fixtures', 'real')
GOLDEN = os.path.join(FIXTURES, 'golden')
ZONE = 'Europe/Berlin'

# The months each file is listed for: where its events, repeats, exceptions and DST changes are.
MONTHS = {
    'icalendar-issue_156_RDATE_with_PERIOD_TZID_khal.ics': ['2018-03', '2018-04'],
    'icalendar-issue_1633_rdate_with_dates_and_tzid.ics': ['1997-01'],
    'icaljs-google_birthday.ics': ['2012-12', '2013-12', '2014-12'],
    'icaljs-rdate_exdate.ics': ['2024-06'],
    'icaljs-recur_instances.ics': ['2012-10', '2012-11', '2013-04', '2023-11'],
    'nodeical-Office-2012-owa.ics': ['2020-10', '2020-11'],
    'nodeical-badRRULE.ics': ['2020-09', '2020-12'],
    'nodeical-biweekly-exdate-until.ics': ['2017-07', '2017-12'],
    'nodeical-duplicate-uid-sequence.ics': ['2024-01'],
    'nodeical-exchange-custom-tz.ics': ['2019-04'],
    'nodeical-exchange_whole_day_moved_recurrence.ics': ['2026-02', '2026-03', '2026-08'],
    'nodeical-exchange_whole_day_moved_recurrence_offset_tz.ics': ['2026-02'],
    'nodeical-google-recurrence-order.ics': ['2026-02'],
    'nodeical-large-file-with-late-error.ics': ['2024-02', '2024-12'],
    'nodeical-ms_timezones.ics': ['2020-06', '2020-09', '2021-03'],
    'nodeical-music-school-weekly-until.ics': ['2022-10', '2022-11'],
    'nodeical-non-utc-until-ny.ics': ['2024-03'],
    'nodeical-windows-quoted-tz-rrule.ics': ['2015-07'],
    'rie-daylight_saving_time.ics': ['2019-02', '2019-03', '2019-10'],
    'rie-issue_113_period_in_rdate.ics': ['2023-09', '2023-12', '2024-01'],
    'rie-issue_113_period_rdate_duration.ics': ['2024-09'],
    'rie-issue_62_moved_event_2.ics': ['2023-08'],
    # Files as Homebody's writes left them (calendarRealFiles.test.ts): they must still read, and list the same.
    'written/exchange-all-day-cancelled.ics': ['2026-02', '2026-03'],
    'written/google-all-day-and-timed.ics': ['2023-08'],
    'written/badrrule-neighbour-cancelled.ics': ['2020-09'],
}


def month_span(month):
    zone = pytz.timezone(ZONE)
    year, number = (int(part) for part in month.split('-'))
    start = zone.localize(datetime.datetime(year, number, 1))
    stop = zone.localize(datetime.datetime(year + (number == 12), number % 12 + 1, 1))
    return start, stop


def shown(value):
    """A date as 2026-02-26; a date-time as its Berlin wall clock, 2026-02-26T09:00 (floating: as written)."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(pytz.timezone(ZONE))
        return value.strftime('%Y-%m-%dT%H:%M')
    return value.strftime('%Y-%m-%d')


def occurrence(event):
    start = event['DTSTART'].dt
    end = event['DTEND'].dt if 'DTEND' in event else start
    return {
        'uid': str(event.get('UID', '')),
        'title': str(event.get('SUMMARY', '')),
        'start': shown(start),
        'end': shown(end),
    }


class TooSlow(Exception):
    pass


def on_alarm(signum, frame):
    raise TooSlow('the reference did not finish within 10 seconds')


def between(calendar, month):
    start, stop = month_span(month)
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(10)
    try:
        return [occurrence(event) for event in recurring_ical_events.of(calendar).between(start, stop)]
    finally:
        signal.alarm(0)


def by_uid(calendar):
    """One calendar per UID (with the file's VTIMEZONEs): what the reference reads when the whole file fails."""
    groups = {}
    for event in calendar.walk('VEVENT'):
        groups.setdefault(str(event.get('UID', '')), []).append(event)
    for uid, events in groups.items():
        part = icalendar.Calendar()
        for key, value in calendar.items():
            part.add(key, value)
        for zone in calendar.walk('VTIMEZONE'):
            part.add_component(zone)
        for event in events:
            part.add_component(event)
        yield uid, part


def listing(name, months):
    """{month: occurrences}, or {month: {"error"}}; per UID (with "skippedUids") when the whole file fails."""
    # icalendar keeps VTIMEZONEs in a module-wide cache: one file's zones must not leak into the next.
    icalendar.timezone_cache._timezone_cache.clear()
    with open(os.path.join(FIXTURES, name), 'rb') as handle:
        text = handle.read()
    try:
        calendar = icalendar.Calendar.from_ical(text)
    except Exception as error:  # the reference cannot read the file at all
        return {month: {'error': '%s: %s' % (type(error).__name__, error)} for month in months}
    ranges = {}
    for month in months:
        try:
            found = between(calendar, month)
        except Exception as error:
            whole = '%s: %s' % (type(error).__name__, error)
            found, skipped = [], {}
            for uid, part in by_uid(calendar):
                try:
                    found += between(part, month)
                except Exception as part_error:
                    skipped[uid] = '%s: %s' % (type(part_error).__name__, part_error)
            ranges[month] = {'perUid': whole, 'skippedUids': skipped, 'occurrences': sort(found)}
            continue
        ranges[month] = sort(found)
    return ranges


def sort(found):
    return sorted(found, key=lambda o: (o['start'], o['uid'], o['end']))


def listing_apart(name, months):
    """listing() in its own process: the reference hangs on some files (a lock in dateutil's rrule cache)."""
    try:
        done = subprocess.run([sys.executable, __file__, '--one', name], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return {month: {'error': 'the reference did not finish within 60 seconds'} for month in months}
    if done.returncode != 0:
        return {month: {'error': done.stderr.strip().splitlines()[-1]} for month in months}
    return json.loads(done.stdout)


def main():
    if sys.argv[1:2] == ['--one']:
        print(json.dumps(listing(sys.argv[2], MONTHS[sys.argv[2]])))
        return
    os.makedirs(GOLDEN, exist_ok=True)
    versions = 'icalendar %s, recurring-ical-events %s' % (
        icalendar.__version__,
        getattr(recurring_ical_events, '__version__', '2.0.1'),
    )
    for name, months in sorted(MONTHS.items()):
        target = os.path.join(GOLDEN, name.replace('/', '__') + '.json')
        notes = []
        if os.path.exists(target):
            with open(target, encoding='utf-8') as handle:
                notes = json.load(handle).get('notes', [])
        ranges = listing_apart(name, months)
        golden = {'file': name, 'timeZone': ZONE, 'reference': versions, 'months': ranges, 'notes': notes}
        with open(target, 'w', encoding='utf-8') as handle:
            json.dump(golden, handle, indent=1, ensure_ascii=False)
            handle.write('\n')
        print('%s: %s' % (name, ', '.join(
            '%s %s' % (m, describe(r)) for m, r in ranges.items())))


def describe(listed):
    if isinstance(listed, list):
        return str(len(listed))
    if 'error' in listed:
        return 'error'
    return '%d (per UID, %d skipped)' % (len(listed['occurrences']), len(listed['skippedUids']))


if __name__ == '__main__':
    main()
