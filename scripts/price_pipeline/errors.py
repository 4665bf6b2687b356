"""The pipeline's one error type: a run refused, with a one-line message that names where.

Every refusal the pipeline makes is a PipelineError (the CLI prints its message and exits 2, no
traceback); faults of an upstream file are UpstreamFormatErrors, whose message reads
"FILE:LINE:COL: expected ..." (COL is the CSV column, counted from 1; for an encoding fault the
byte within the line)."""

SHOWN_CHARS = 40


class PipelineError(ValueError):
    """A run refused: the message is one line naming the file or path and what was expected."""


class UpstreamFormatError(PipelineError):
    """An upstream file that is not what the readers expect, located by file, line and column."""

    def __init__(self, file, line, column, expected):
        self.file, self.line, self.column, self.expected = file, line, column, expected
        super().__init__(f"{file}:{line}:{column}: {expected}")


def shown(text):
    """A value for a one-line message: its repr, cut to SHOWN_CHARS characters with the length
    said (so a 4 KiB cell or a line break never floods or splits the line)."""
    if len(text) <= SHOWN_CHARS:
        return repr(text)
    return f"{text[:SHOWN_CHARS]!r}... ({len(text.encode('utf-8', 'surrogatepass'))} bytes)"
