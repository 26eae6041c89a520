"""A lenient date parser covering the subset of dateutil.parser.parse that answers use.

Supported: ISO 8601 (2020-03-05, 2020-03-05T10:30:00.5+02:00, ...Z, 20200305); month names, full or
abbreviated, before or after the day (March 5, 2020, 5 Mar 2020, 5th of March 2020, Thursday, March 5,
2020, March 2020); numeric dates separated by /, - or . (2020/03/05, month-first 05/03/2020, day-first
only when the first number cannot be a month: 13/03/2020; two-digit years as dateutil maps them); times 10:30,
10:30:15.25, 10am, 3 pm; time zones Z, UTC, GMT, +hh:mm, +hhmm. Missing parts come from today, as
in dateutil. Unsupported, and so parse failures: relative words (yesterday), other languages, any other word,
named time zones other than UTC/GMT, fuzzy parsing of dates inside longer text.
"""

import datetime as _dt
import re

__all__ = ["parse_date"]

_MONTHS = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4, "may": 5,
    "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9,
    "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}
_SKIPPED = {
    "mon", "monday", "tue", "tues", "tuesday", "wed", "wednesday", "thu", "thur", "thurs", "thursday", "fri",
    "friday", "sat", "saturday", "sun", "sunday", "of", "the", "at", "on", "and", "t",
}
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?", re.IGNORECASE)
_TIME = re.compile(
    r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6})\d*)?)?\s*([ap]\.?m\.?)?(?![\d:])"
    r"|(?<![\d:])(\d{1,2})\s*([ap]\.?m\.?)(?!\w)",
    re.IGNORECASE,
)
_ZONE = re.compile(r"(?:(?<=\s)|(?<=\d))(?:(Z|UTC|GMT)|([+-])(\d{2}):?(\d{2}))\s*$", re.IGNORECASE)
_TOKEN = re.compile(r"(\d+)(?:st|nd|rd|th)?|([^\W\d_]+)")
_INT_MAX = 2**31 - 1


def _fail(text):
    raise ValueError(f"Unknown string format: {text}")


def _two_digit_year(year, today):
    century = today.year // 100 * 100
    year += century
    if year >= today.year + 50:
        year -= 100
    elif year < today.year - 50:
        year += 100
    return year


def _take_time(text):
    match = _TIME.search(text)
    if not match:
        return text, None
    if match.group(6):
        hour, minute, second, fraction, meridiem = int(match.group(6)), 0, 0, 0, match.group(7)
    else:
        hour, minute = int(match.group(1)), int(match.group(2))
        second = int(match.group(3) or 0)
        fraction = int((match.group(4) or "0").ljust(6, "0"))
        meridiem = match.group(5)
    if meridiem:
        if not 1 <= hour <= 12:
            _fail(text)
        hour = hour % 12 + (12 if meridiem.lower().startswith("p") else 0)
    return text[:match.start()] + " " + text[match.end():], (hour, minute, second, fraction)


def _take_zone(text, has_time):
    match = _ZONE.search(text) if has_time else None
    if not match:
        return text, None
    if match.group(1):
        zone = _dt.timezone.utc
    else:
        minutes = int(match.group(3)) * 60 + int(match.group(4))
        zone = _dt.timezone(_dt.timedelta(minutes=-minutes if match.group(2) == "-" else minutes))
    return text[:match.start()], zone


def _compact(digits, today):
    """A run of digits alone: YYYYMMDD[hhmm[ss]], YYMMDD, a year, or a day of the current month."""
    n = len(digits)
    if n in (8, 12, 14):
        parts = [int(digits[0:4]), int(digits[4:6]), int(digits[6:8])]
        time = [int(digits[i:i + 2]) for i in range(8, n, 2)]
        return parts, tuple(time + [0] * (3 - len(time))) + (0,) if time else None
    if n == 6:
        return [_two_digit_year(int(digits[0:2]), today), int(digits[2:4]), int(digits[4:6])], None
    if n in (3, 4):
        return [int(digits), None, None], None
    if n <= 2:
        return [None, None, int(digits)], None
    if int(digits) > _INT_MAX:
        raise OverflowError("Python int too large to convert to C int")
    _fail(digits)


def _assign(numbers, month, today, text):
    """(year, month, day) from the numeric tokens and an optional month name."""
    year = day = None
    if month is not None:
        rest = []
        for raw in numbers:
            if year is None and (len(raw) >= 3 or int(raw) > 31):
                year = int(raw)
            else:
                rest.append(raw)
        if rest:
            day = int(rest.pop(0))
        if rest and year is None:
            year = _two_digit_year(int(rest.pop(0)), today) if len(rest[0]) <= 2 else int(rest.pop(0))
        if rest:
            _fail(text)
        return year, month, day
    values = [int(n) for n in numbers]
    if len(values) == 3:
        a, b, c = values
        if len(numbers[0]) >= 3 or a > 31:
            year, month, day = a, b, c
        elif a > 12 and b <= 12:
            day, month, year = a, b, c
        else:
            month, day, year = a, b, c
        if len(numbers[2]) <= 2 and year == c:
            year = _two_digit_year(c, today)
        return year, month, day
    if len(values) == 2:
        a, b = values
        if len(numbers[0]) >= 3:
            return a, b, None
        if len(numbers[1]) >= 3:
            return b, a, None
        return None, a, b
    _fail(text)


def parse_date(value, default=None):
    """Parses like dateutil.parser.parse(value); raises ValueError/TypeError when it cannot."""
    if not isinstance(value, str):
        raise TypeError(f"Parser must be a string or character stream, not {type(value).__name__}")
    today = default or _dt.datetime.now().replace(hour=0, minute=0, second=0, microsecond=0)
    text = value.strip()
    if not text:
        raise ValueError("String does not contain a date: " + repr(value))
    if _ISO.fullmatch(text):
        iso = text[:-1] + "+00:00" if text[-1] in "zZ" else text
        return _dt.datetime.fromisoformat(iso.replace(",", "."))
    body, time = _take_time(text)
    body, zone = _take_zone(body, time is not None)
    tokens = _TOKEN.findall(body)
    leftovers = _TOKEN.sub(" ", body)
    if re.search(r"[^\s,./\-']", leftovers):
        _fail(text)
    numbers, month = [], None
    for digits, word in tokens:
        if digits:
            numbers.append(digits)
            continue
        lowered = word.lower()
        if lowered in _MONTHS and month is None:
            month = _MONTHS[lowered]
        elif lowered in ("z", "utc", "gmt") and zone is None:
            zone = _dt.timezone.utc
        elif lowered not in _SKIPPED:
            _fail(text)
    if not numbers and month is None and time is None:
        _fail(text)
    if not numbers and month is None:
        year = month = day = None
    elif month is None and len(numbers) == 1:
        (year, month, day), compact_time = _compact(numbers[0], today)
        time = time or compact_time
    else:
        year, month, day = _assign(numbers, month, today, text)
    hour, minute, second, micro = time or (0, 0, 0, 0)
    return _dt.datetime(year or today.year, month or today.month, day or today.day, hour, minute, second, micro,
                        tzinfo=zone)
