"""Regenerates python-semantics.json from real CPython + python-dateutil (run with python3; needs python-dateutil).

The date cases parse with default=datetime(2026, 11, 22) so they do not depend on the day they are run, and were
generated in 2026 (dateutil converts two-digit years relative to the current year).
"""
import json
import random
import warnings
from datetime import datetime

from dateutil import parser

warnings.simplefilter("ignore")
random.seed(1)
DEFAULT = datetime(2026, 11, 22)


def dt_json(d):
    off = None if d.tzinfo is None else int(d.utcoffset().total_seconds())
    return [d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond, off]


def date_cases():
    nums = ["5", "05", "12", "13", "31", "32", "2020", "99", "20", "1999", "0", "00", "100", "2020.5", "10.30"]
    seps = ["-", "/", ".", " ", ", ", "T", ":"]
    words = ["March", "Mar", "mar", "sept", "Thursday", "Thu", "of", "at", "on", "the", "5th", "1st", "am", "pm",
             "PM", "Z", "UTC", "GMT", "EST", "+02:00", "-0300", "+3", "h", "m", "s", "and", "x", ".", "(", ")"]
    cases = {"2020-03-05 10:30:15.123456+05:30", "March 5 2020 10pm", "5th of March, 2020", "12:00 am", "2020-02-29",
             "2019-02-29", "Dec 31 1999 23:59:59", "1999-12-31T23:59:59.999999Z", "Sun, 06 Nov 1994 08:49:37 GMT",
             "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37+0100", "10 h 30 m",
             "4pm EST", "31/12/2020", "12/31/2020", "2020-12", "2020 12 31", "  2020-01-01  ",
             "2020-01-01 12:00:00 (PST)", "3 June 2021 at 9am", "June 3rd 2021", "99999999999999999999", "0000-01-01",
             "2020", "05/03/2020", "March 5, 2020", "5 Mar 2020", "2020/03/05", "Feb 2021", "Monday", "\u0662\u0660\u0662\u0660-01-02"}
    for _ in range(600):
        n = random.randint(1, 5)
        toks = []
        for i in range(n):
            r = random.random()
            if r < 0.5:
                toks.append(random.choice(nums))
            elif r < 0.8:
                toks.append(random.choice(words))
            if i < n - 1:
                toks.append(random.choice(seps))
        cases.add("".join(toks))
    out = []
    for s in sorted(cases):
        try:
            out.append([s, dt_json(parser.parse(s, default=DEFAULT))])
        except OverflowError:
            out.append([s, "OverflowError"])
        except (ValueError, TypeError):
            out.append([s, None])
    return out


def strptime_cases():
    pairs = [("05/03/2020", "%d/%m/%Y"), ("5/3/2020", "%d/%m/%Y"), ("2020-03-05", "%Y-%m-%d"), ("20-3-5", "%y-%m-%d"),
             ("68-01-01", "%y-%m-%d"), ("69-01-01", "%y-%m-%d"), ("March 5, 2020", "%B %d, %Y"),
             ("mar 5 2020", "%b %d %Y"), ("5 Mar 2020 10:30PM", "%d %b %Y %I:%M%p"), ("2020-03-05T10:30:00+0200", "%Y-%m-%dT%H:%M:%S%z"),
             ("2020-03-05 10:30:00.5", "%Y-%m-%d %H:%M:%S.%f"), ("2020-060", "%Y-%j"), ("2020-03-05 x", "%Y-%m-%d"),
             ("2020-02-30", "%Y-%m-%d"), ("05.03.2020", "%d.%m.%Y"), ("05/03/2020", "%m/%d/%Y"), ("2020  03 05", "%Y %m %d"),
             ("Thursday 5 March 2020", "%A %d %B %Y"), ("12:00 AM", "%I:%M %p"), ("2020-03-05Z", "%Y-%m-%d%z"),
             ("2020-03-05 UTC", "%Y-%m-%d %Z"), ("2020", "%q"), ("100%", "%d%%"), ("2020-03-05", "%Y-%m-%d %H")]
    out = []
    for text, fmt in pairs:
        try:
            out.append([text, fmt, dt_json(datetime.strptime(text, fmt))])
        except ValueError:
            out.append([text, fmt, None])
    return out


def float_cases():
    values = [0.0, -0.0, 1.0, 2.5, 1e16, 1e15, 123456789012345678.0, 1e-5, 0.0001, 1.5e-7, 1e100, 1e22, 0.1, 1 / 3,
              -2.75, 5e-324, 1.7976931348623157e308, 100.0, 12345.678]
    return [[v, repr(v)] for v in values]


def float_parse_cases():
    texts = [" 1_000 ", "1e3", "-.5", "5.", "+inf", "-Infinity", "nan", "", "1,000", "0x10", "1__0", "_1", "1_", "\u0663.5",
             "\u00a01\u2003", "\ufeff1", "1e", "e1", ".", "in", "1.5e-3", "\x1c2\x1f"]
    out = []
    for t in texts:
        try:
            v = float(t)
            out.append([t, "nan" if v != v else v if abs(v) != float("inf") else ("inf" if v > 0 else "-inf")])
        except ValueError:
            out.append([t, None])
    return out


def repr_cases():
    texts = ["plain", "it's", 'say "hi"', "both ' and \"", "tab\there", "new\nline", "back\\slash", "\x00\x7f\x85\xa0",
             "\u2028\u200b\ufeff", "caf\u00e9 \U0001F600", "\x1b[0m"]
    return [[t, repr(t)] for t in texts]


json.dump({"dates": date_cases(), "strptime": strptime_cases(), "float_repr": float_cases(),
           "float_parse": float_parse_cases(), "string_repr": repr_cases(),
           "whitespace": "".join(chr(c) for c in range(0x110000) if chr(c).isspace())},
          open("python-semantics.json", "w"), ensure_ascii=True, indent=0)
