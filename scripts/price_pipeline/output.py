"""Deterministic JSON: sorted keys, numbers written as the repr of the parsed decimal's float,
one space of indent, a trailing newline. The same input gives the same bytes."""

import gzip
import json
from decimal import Decimal


def _plain(value):
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def dumps(document):
    return json.dumps(_plain(document), indent=1, sort_keys=True, ensure_ascii=False,
                      allow_nan=False) + "\n"


def gzip_size(text):
    # mtime=0 and no file name: the size depends on the bytes only.
    return len(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
