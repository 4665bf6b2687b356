"""A bounded reader of the Python literals in the upstream's GpuInfo column, such as
{'Gpus': [{'Name': 'T4', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 16384}}],
 'TotalGpuMemoryInMiB': 16384}.

No eval and no ast: ast.literal_eval builds a syntax tree first, and a cell of 4,000 nested
brackets makes that recursion fail or the parser run out of memory. This reader takes dicts,
lists, quoted strings, numbers, True, False and None, at most MAX_DEPTH levels deep; anything
else is a LiteralError naming the character where it stopped."""

import math
import re

MAX_DEPTH = 8
MAX_NUMBER_CHARS = 32
RULE = (f"dicts, lists, quoted strings, numbers, True, False and None, at most {MAX_DEPTH} "
        "levels deep")

_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_WORDS = {"True": True, "False": False, "None": None}
_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t", "r": "\r"}
_CLOSE = {"{": "}", "[": "]"}


class LiteralError(ValueError):
    pass


class _Reader:
    def __init__(self, text):
        self.text, self.at = text, 0

    def fail(self, expected):
        got = repr(self.text[self.at]) if self.at < len(self.text) else "the end"
        return LiteralError(f"expected {expected} at character {self.at + 1}, got {got}")

    def blank(self):
        while self.at < len(self.text) and self.text[self.at] in " \t":
            self.at += 1

    def peek(self):
        self.blank()
        return self.text[self.at] if self.at < len(self.text) else ""

    def take(self, char):
        if self.peek() != char:
            raise self.fail(repr(char))
        self.at += 1

    def value(self, depth):
        char = self.peek()
        if char in _CLOSE:
            if depth >= MAX_DEPTH:
                raise self.fail(f"at most {MAX_DEPTH} levels of nesting")
            return self.dict(depth + 1) if char == "{" else self.list(depth + 1)
        if char in ("'", '"'):
            return self.string(char)
        if char == "-" or char.isdigit():
            return self.number()
        for word, value in _WORDS.items():
            if self.text.startswith(word, self.at):
                self.at += len(word)
                return value
        raise self.fail("a value")

    def items(self, close, one):
        """Comma-separated items up to `close` (a trailing comma allowed)."""
        self.at += 1
        while self.peek() != close:
            one()
            if self.peek() != ",":
                break
            self.at += 1
        self.take(close)

    def dict(self, depth):
        out = {}

        def pair():
            key = self.value(depth)
            if isinstance(key, (dict, list)):
                raise self.fail("a string or number as a key")
            self.take(":")
            out[key] = self.value(depth)
        self.items("}", pair)
        return out

    def list(self, depth):
        out = []
        self.items("]", lambda: out.append(self.value(depth)))
        return out

    def string(self, quote):
        self.at += 1
        parts = []
        while self.at < len(self.text) and self.text[self.at] != quote:
            char = self.text[self.at]
            if char == "\\":
                escaped = self.text[self.at + 1:self.at + 2]
                if escaped not in _ESCAPES:
                    self.at += 1
                    raise self.fail("one of the escapes \\\\ \\' \\\" \\n \\t \\r")
                char = _ESCAPES[escaped]
                self.at += 1
            parts.append(char)
            self.at += 1
        if self.at >= len(self.text):
            raise self.fail(f"the closing {quote}")
        self.at += 1
        return "".join(parts)

    def number(self):
        match = _NUMBER.match(self.text, self.at)
        if not match or len(match.group()) > MAX_NUMBER_CHARS:
            raise self.fail(f"a number of at most {MAX_NUMBER_CHARS} characters")
        text = match.group()
        value = int(text) if match.group(1) is None and match.group(2) is None else float(text)
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail("a finite number")
        self.at = match.end()
        return value


def parse(text):
    """The literal `text` holds, whole; LiteralError when it holds anything else."""
    reader = _Reader(text)
    value = reader.value(0)
    if reader.peek() != "":
        raise reader.fail("the end of the literal")
    return value
