"""One reader of shell command text: ``lex`` tokenizes a line as a POSIX shell reads it.

It yields words (their raw span, their value after quote removal, and the pieces they
are made of: plain, quoted, escaped, expansions), control operators, redirections,
comments and here-document bodies, in text order, and notes the quoting of every
character. It never raises: an unclosed quote, substitution or here-document is a
``Problem`` (what, where), and reading goes on to the end of the text as the open
construct, so each caller decides what an unfinished line means.

Expansions are read as the shell reads them before running anything: ``$NAME``,
``$1``, ``$?``, ``${...}``, ``$(...)`` and ``<(...)``/``>(...)`` (their commands lexed
in place), backquotes (their unescaped text lexed on its own) and ``$((...))`` (only
its parentheses are counted, so its end is where they balance). It knows tokens, not
grammar: a ``case`` pattern's ``)`` inside ``$(...)`` ends the substitution early.

``lex(text, quotes_only=True)`` reads quotes and backslashes alone: no comments, no
expansions, no here-documents. That is how a splitter that knows only quoting reads a
line (Claude Code's permission split); ``within`` starts a reading inside a quote
opened before the text. Standard library only, imported by the engine, the lint and the
course's labs (docs/ARCHITECTURE.md, "One shell reader").
"""

from __future__ import annotations

from hookcourse.record import Choice, Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import ClassVar

MAX_NESTING = 64
"""Expansions inside expansions read this deep; past it, the rest is unread (a Problem)."""
BLANKS = " \t"
METACHARACTERS = " \t\n;&|()<>"
CONTROL_OPERATORS = ("&&", "||", ";;&", ";;", ";&", "|&", "|", "&", ";", "(", ")", "\n")
REDIRECTIONS = ("<<<", "<<-", "&>>", "<<", "&>", ">>", ">|", ">&", "<&", "<>", ">", "<")
_SPECIAL_PARAMETERS = "@*#?$!-0123456789"
_ESCAPED_IN_DOUBLE_QUOTES = frozenset('$`"\\\n')

# The value types are Records, not dataclasses: a hook script imports this module on
# every call, and dataclasses and enum would multiply its import time.


class Quoting(Choice):
    """The quotes a character sits in (a quote mark counts as inside its own quotes)."""

    __slots__ = ()
    _allowed = ("", "'", '"')
    NONE: ClassVar[Quoting]
    SINGLE: ClassVar[Quoting]
    DOUBLE: ClassVar[Quoting]


Quoting.NONE, Quoting.SINGLE, Quoting.DOUBLE = (Quoting(value) for value in Quoting._allowed)


class Problem(Record):
    """Something left open: ``what`` is ``'``, ``"``, ``$(``, `````, ``${``, ``$((``,
    ``<(``, ``>(`` or ``<<`` (a here-document without its closing line); or
    ``nesting``: expansions nested deeper than ``MAX_NESTING``, the rest left unread."""

    _fields = ("what", "start")
    __slots__ = _fields
    what: str
    start: int

    def __init__(self, what: str, start: int) -> None:
        self._fill(what, start)


class Expansion(Record):
    """``$NAME``, ``${...}``, ``$(...)``, a backquote, ``$((...))`` or ``<(...)``.

    ``kind`` is ``variable``, ``braced``, ``command``, ``backquote``, ``arithmetic``,
    ``process``, or ``unread`` (the rest of the text, nested too deep to read); ``name``
    the parameter's name for ``variable`` and ``braced`` (``""`` otherwise); ``quoted``
    whether it sits inside double quotes; ``tokens`` the commands inside a substitution
    (a backquote's positioned in its own text); ``inside`` the expansions inside a
    ``${...}`` or a ``$((...))`` (the latter's positioned in the expression's own text).
    """

    _fields = ("kind", "start", "end", "name", "quoted", "tokens", "inside")
    __slots__ = _fields
    kind: str
    start: int
    end: int
    name: str
    quoted: bool
    tokens: tuple[Token, ...]
    inside: tuple[Expansion, ...]

    def __init__(
        self,
        kind: str,
        start: int,
        end: int,
        name: str,
        quoted: bool,
        tokens: tuple[Token, ...] = (),
        inside: tuple[Expansion, ...] = (),
    ) -> None:
        self._fill(kind, start, end, name, quoted, tokens, inside)


class Piece(Record):
    """A run of one word: its value after quote removal, how it was quoted, whether a
    backslash escaped it, and the expansion it is (None for text)."""

    _fields = ("start", "end", "value", "quoting", "escaped", "expansion")
    __slots__ = _fields
    start: int
    end: int
    value: str
    quoting: Quoting
    escaped: bool
    expansion: Expansion | None

    def __init__(
        self,
        start: int,
        end: int,
        value: str,
        quoting: Quoting,
        escaped: bool = False,
        expansion: Expansion | None = None,
    ) -> None:
        self._fill(start, end, value, quoting, escaped, expansion)


class Word(Record):
    """A shell word: its raw text, its value after quote removal (expansions as written)."""

    _fields = ("start", "end", "raw", "value", "pieces")
    __slots__ = _fields
    start: int
    end: int
    raw: str
    value: str
    pieces: tuple[Piece, ...]

    def __init__(
        self, start: int, end: int, raw: str, value: str, pieces: tuple[Piece, ...]
    ) -> None:
        self._fill(start, end, raw, value, pieces)

    @property
    def quoted(self) -> bool:
        """Some piece was quoted or escaped."""
        return any(piece.quoting is not Quoting.NONE or piece.escaped for piece in self.pieces)

    @property
    def expansions(self) -> tuple[Expansion, ...]:
        """The word's expansions, in text order."""
        return tuple(piece.expansion for piece in self.pieces if piece.expansion is not None)


class Operator(Record):
    """A control operator: ``&&``, ``||``, ``;``, ``;;``, ``|``, ``|&``, ``&``, ``(``,
    ``)`` or a newline."""

    _fields = ("start", "end", "text")
    __slots__ = _fields
    start: int
    end: int
    text: str

    def __init__(self, start: int, end: int, text: str) -> None:
        self._fill(start, end, text)


class Redirection(Record):
    """``[n]op target``: ``fd`` the descriptor digits (``""`` if none), ``target`` the
    word after the operator (None when there is none)."""

    _fields = ("start", "end", "fd", "operator", "target")
    __slots__ = _fields
    start: int
    end: int
    fd: str
    operator: str
    target: Word | None

    def __init__(self, start: int, end: int, fd: str, operator: str, target: Word | None) -> None:
        self._fill(start, end, fd, operator, target)


class Comment(Record):
    """``#`` to the end of its line."""

    _fields = ("start", "end", "text")
    __slots__ = _fields
    start: int
    end: int
    text: str

    def __init__(self, start: int, end: int, text: str) -> None:
        self._fill(start, end, text)


class HereDocument(Record):
    """The body of a ``<<`` redirection, from the line after it to its closing line."""

    _fields = ("start", "end", "delimiter", "body")
    __slots__ = _fields
    start: int
    end: int
    delimiter: str
    body: str

    def __init__(self, start: int, end: int, delimiter: str, body: str) -> None:
        self._fill(start, end, delimiter, body)


Token = Word | Operator | Redirection | Comment | HereDocument


class Lexed(Record):
    """What ``lex`` read: the tokens, what was left open, each character's quoting,
    ``escaped`` (the backslashes that escape and the characters they escape) and
    ``marks`` (the quote marks and escaping backslashes: what quote removal drops)."""

    _fields = ("text", "tokens", "problems", "quoting", "escaped", "marks")
    __slots__ = _fields
    text: str
    tokens: tuple[Token, ...]
    problems: tuple[Problem, ...]
    quoting: tuple[Quoting, ...]
    escaped: frozenset[int]
    marks: frozenset[int]

    def __init__(
        self,
        text: str,
        tokens: tuple[Token, ...],
        problems: tuple[Problem, ...],
        quoting: tuple[Quoting, ...],
        escaped: frozenset[int],
        marks: frozenset[int],
    ) -> None:
        self._fill(text, tokens, problems, quoting, escaped, marks)

    def plain(self, index: int) -> bool:
        """The character at ``index`` is outside quotes and not escaped."""
        return self.quoting[index] is Quoting.NONE and index not in self.escaped


def lex(text: str, *, quotes_only: bool = False, within: Quoting = Quoting.NONE) -> Lexed:
    """Read ``text`` as a shell would (see the module docstring); never raises."""
    reader = _Reader(text, quotes_only)
    tokens = reader.read(within)
    return Lexed(
        text,
        tuple(tokens),
        tuple(sorted(reader.problems, key=lambda problem: problem.start)),
        tuple(reader.quoting),
        frozenset(reader.escaped),
        frozenset(reader.marks),
    )


def split(text: str) -> list[str] | None:
    """The values of ``text``'s words in order (what ``shlex.split`` gives for a line of
    plain words); None when something is left open. Operators, redirections and comments
    are not words."""
    reading = lex(text)
    if reading.problems:
        return None
    return [token.value for token in reading.tokens if isinstance(token, Word)]


def words(tokens: tuple[Token, ...]) -> list[list[Word]]:
    """The words of each simple command: split at every control operator, with
    redirections, comments and here-document bodies left out."""
    commands: list[list[Word]] = [[]]
    for token in tokens:
        if isinstance(token, Operator):
            commands.append([])
        elif isinstance(token, Word):
            commands[-1].append(token)
    return [command for command in commands if command]


class _Reader:
    """One pass over ``text``; ``quoting`` and ``escaped`` are filled as it goes."""

    def __init__(self, text: str, quotes_only: bool, depth: int = 0) -> None:
        self.text = text
        self.depth = depth
        self.quotes_only = quotes_only
        self.problems: list[Problem] = []
        self.quoting = [Quoting.NONE] * len(text)
        self.escaped: set[int] = set()
        self.marks: set[int] = set()
        self.position = 0

    def read(self, within: Quoting) -> list[Token]:
        if within is not Quoting.NONE:
            # The text starts inside a quote: its first word starts there.
            return [self._word(within), *self._commands(closer=False)]
        return self._commands(closer=False)

    # --- commands -------------------------------------------------------------------

    def _commands(self, closer: bool) -> list[Token]:
        """Tokens to the end, or (``closer``) to the ``)`` ending a ``$(``, not consumed."""
        text = self.text
        tokens: list[Token] = []
        depth = 0  # subshell parentheses opened inside a $( ... )
        pending: list[Redirection] = []  # here-documents waiting for the end of the line
        while self.position < len(text):
            i = self.position
            ch = text[i]
            if ch in BLANKS:
                self.position += 1
            elif text.startswith("\\\n", i):  # a line continuation between words
                self._escape(i)
                self.position += 2
            elif ch == "#" and not self.quotes_only:
                end = text.find("\n", i)
                end = len(text) if end < 0 else end
                tokens.append(Comment(i, end, text[i:end]))
                self.position = end
            elif ch == ")" and closer and depth == 0:
                break
            elif self._substitution_starts(i):
                tokens.append(self._word())
            elif ch in "<>&" and (redirection := self._redirection("")) is not None:
                tokens.append(redirection)
                pending += [] if self.quotes_only else _here_document_opener(redirection)
            elif ch in ";&|()\n" and (operator := _control_operator_at(text, i)) is not None:
                if operator == "(":
                    depth += 1
                elif operator == ")":
                    depth = max(depth - 1, 0)
                tokens.append(Operator(i, i + len(operator), operator))
                self.position += len(operator)
                if operator == "\n" and pending:
                    tokens += self._here_documents(pending)
                    pending = []
            else:
                word = self._word()
                io_number = word.raw.isdigit() and text.startswith(("<", ">"), word.end)
                redirection = self._redirection(word.raw) if io_number else None
                tokens.append(redirection or word)
                pending += [] if self.quotes_only else _here_document_opener(redirection)
        self.problems += [Problem("<<", opener.start) for opener in pending]
        return tokens

    def _substitution_starts(self, i: int) -> bool:
        """A ``<(`` or ``>(`` process substitution starts at ``i``."""
        return not self.quotes_only and self.text.startswith(("<(", ">("), i)

    def _redirection(self, fd: str) -> Redirection | None:
        """The redirection operator at the position (after ``fd``'s digits) and its target."""
        text, start = self.text, self.position - len(fd)
        operator = _longest(text, self.position, _REDIRECTION)
        if not operator:
            return None
        self.position += len(operator)
        operator_end = self.position
        while self.position < len(text) and text[self.position] in BLANKS:
            self.position += 1
        target = None
        if self.position < len(text) and (
            text[self.position] not in METACHARACTERS or self._substitution_starts(self.position)
        ):
            target = self._word()
        else:
            self.position = operator_end
        end = target.end if target is not None else operator_end
        return Redirection(start, end, fd, operator, target)

    def _here_documents(self, openers: list[Redirection]) -> list[Token]:
        """The bodies of the here-documents opened on the line that just ended."""
        text = self.text
        bodies: list[Token] = []
        for opener in openers:
            assert opener.target is not None
            delimiter, strip_tabs = opener.target.value, opener.operator == "<<-"
            start = line_start = self.position
            while True:
                line_end = text.find("\n", line_start)
                line_end = len(text) if line_end < 0 else line_end
                line = text[line_start:line_end]
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    body = text[start:line_start]
                    bodies.append(HereDocument(start, line_end, delimiter, body))
                    self.position = min(line_end + 1, len(text))
                    break
                if line_end >= len(text):
                    self.problems.append(Problem("<<", opener.start))
                    bodies.append(HereDocument(start, len(text), delimiter, text[start:]))
                    self.position = len(text)
                    break
                line_start = line_end + 1
        return bodies

    # --- words ----------------------------------------------------------------------

    def _word(self, within: Quoting = Quoting.NONE) -> Word:
        """The word at the position, which may be ``within`` a quote opened before it."""
        text, start = self.text, self.position
        pieces: list[Piece] = []
        if within is Quoting.DOUBLE:
            pieces = self._double(opened=True)
        elif within is Quoting.SINGLE:
            pieces = [self._single(start, opened=True)]
        while self.position < len(text):
            i = self.position
            ch = text[i]
            if self._substitution_starts(i):
                pieces.append(self._nested(i, Quoting.NONE, self._process))
            elif ch in METACHARACTERS:
                break
            elif ch == "\\":
                pieces += self._backslash(i)
            elif ch == "'":
                pieces.append(self._single(i))
            elif ch == '"':
                pieces += self._double()
            elif ch in "$`" and not self.quotes_only:
                pieces.append(self._expansion(i, Quoting.NONE))
            else:
                end = i + 1
                while end < len(text) and text[end] not in _WORD_BREAKS:
                    end += 1
                pieces.append(Piece(i, end, text[i:end], Quoting.NONE))
                self.position = end
        value = "".join(piece.value for piece in pieces)
        return Word(start, self.position, text[start : self.position], value, tuple(pieces))

    def _backslash(self, i: int) -> list[Piece]:
        """A backslash outside quotes: it escapes the next character (a newline vanishes)."""
        text = self.text
        if i + 1 >= len(text):
            self.position = i + 1
            return [Piece(i, i + 1, "\\", Quoting.NONE)]
        self._escape(i)
        self.position = i + 2
        if text[i + 1] == "\n":
            return []
        return [Piece(i, i + 2, text[i + 1], Quoting.NONE, escaped=True)]

    def _single(self, i: int, opened: bool = False) -> Piece:
        """A single-quoted run from its opening quote (or, ``opened``, from ``i`` inside it)."""
        text = self.text
        first = i if opened else i + 1
        close = text.find("'", first)
        if close < 0:
            self.problems.append(Problem("'", i))
        end = len(text) if close < 0 else close + 1
        self._mark(i, end, Quoting.SINGLE)
        self.marks.update(([] if opened else [i]) + ([close] if close >= 0 else []))
        self.position = end
        return Piece(i, end, text[first : len(text) if close < 0 else close], Quoting.SINGLE)

    def _double(self, opened: bool = False) -> list[Piece]:
        """The pieces of a double-quoted run, from its opening quote (or, ``opened``, from
        the position inside it) through its closing one."""
        text = self.text
        start = self.position
        i = run = start if opened else start + 1
        self._mark(start, run, Quoting.DOUBLE)
        self.marks.update(range(start, run))
        pieces: list[Piece] = []

        def end_run(at: int) -> None:
            if at > run:
                self._mark(run, at, Quoting.DOUBLE)
                pieces.append(Piece(run, at, text[run:at], Quoting.DOUBLE))

        while i < len(text) and text[i] != '"':
            if text[i] == "\\" and text[i + 1 : i + 2] in _ESCAPED_IN_DOUBLE_QUOTES:
                end_run(i)
                self._mark(i, i + 2, Quoting.DOUBLE)
                self._escape(i)
                kept = "" if text[i + 1] == "\n" else text[i + 1]
                pieces.append(Piece(i, i + 2, kept, Quoting.DOUBLE, escaped=True))
                i = run = i + 2
            elif text[i] in "$`" and not self.quotes_only:
                end_run(i)
                pieces.append(self._expansion(i, Quoting.DOUBLE))
                i = run = self.position
            else:
                i += 1
        end_run(i)
        if i >= len(text):
            self.problems.append(Problem('"', start))
        else:
            self._mark(i, i + 1, Quoting.DOUBLE)
            self.marks.add(i)
            i += 1
        self.position = i
        return pieces

    def _escape(self, i: int) -> None:
        """The backslash at ``i`` escapes the character after it."""
        self.escaped.update((i, i + 1))
        self.marks.add(i)

    def _mark(self, start: int, end: int, quoting: Quoting) -> None:
        for k in range(start, min(end, len(self.text))):
            self.quoting[k] = quoting

    # --- expansions -----------------------------------------------------------------

    def _expansion(self, i: int, quoting: Quoting) -> Piece:
        """The ``$`` or backquote at ``i`` (a ``$`` that starts nothing is text)."""
        text = self.text
        if text[i] == "`":
            return self._nested(i, quoting, self._backquote)
        if text.startswith("$((", i):
            return self._nested(i, quoting, self._arithmetic)
        if text.startswith("$(", i):
            return self._nested(i, quoting, self._command)
        if text.startswith("${", i):
            return self._nested(i, quoting, self._braced)
        end = _name_end(text, i + 1)
        self.position = end
        self._mark(i, end, quoting)
        if end == i + 1:
            return Piece(i, end, "$", quoting)
        quoted = quoting is Quoting.DOUBLE
        expansion = Expansion("variable", i, end, text[i + 1 : end], quoted)
        return Piece(i, end, text[i:end], quoting, expansion=expansion)

    def _nested(self, i: int, quoting: Quoting, read: Callable[[int, Quoting], Piece]) -> Piece:
        """``read`` the expansion at ``i`` one level deeper; past ``MAX_NESTING`` the rest
        of the text is one unread expansion, so no input runs out of stack."""
        if self.depth >= MAX_NESTING:
            self.problems.append(Problem("nesting", i))
            end = self.position = len(self.text)
            self._mark(i, end, quoting)
            expansion = Expansion("unread", i, end, "", quoting is Quoting.DOUBLE)
            return Piece(i, end, self.text[i:end], quoting, expansion=expansion)
        self.depth += 1
        try:
            return read(i, quoting)
        finally:
            self.depth -= 1

    def _command(self, i: int, quoting: Quoting) -> Piece:
        return self._substitution(i, "command", quoting)

    def _process(self, i: int, quoting: Quoting) -> Piece:
        return self._substitution(i, "process", quoting)

    def _substitution(self, i: int, kind: str, quoting: Quoting) -> Piece:
        """``$(...)`` or ``<(...)``/``>(...)``: its commands read in place."""
        text = self.text
        self._mark(i, i + 2, quoting)
        self.position = i + 2
        tokens = self._commands(closer=True)
        if self.position < len(text):
            self._mark(self.position, self.position + 1, quoting)
            self.position += 1
        else:
            self.problems.append(Problem(text[i : i + 2], i))
        expansion = Expansion(kind, i, self.position, "", quoting is Quoting.DOUBLE, tuple(tokens))
        return Piece(i, self.position, text[i : self.position], quoting, expansion=expansion)

    def _backquote(self, i: int, quoting: Quoting) -> Piece:
        """A backquote substitution: its text, unescaped, is read on its own."""
        text = self.text
        j = i + 1
        inner: list[str] = []
        while j < len(text) and text[j] != "`":
            if text[j] == "\\" and text[j + 1 : j + 2] in ("`", "\\", "$"):
                inner.append(text[j + 1])
                j += 2
            else:
                inner.append(text[j])
                j += 1
        if j >= len(text):
            self.problems.append(Problem("`", i))
        end = min(j + 1, len(text))
        self._mark(i, end, quoting)
        reader = _Reader("".join(inner), quotes_only=False, depth=self.depth)
        tokens = reader.read(Quoting.NONE)
        self.problems += [Problem(p.what, p.start + i + 1) for p in reader.problems]
        self.position = end
        quoted = quoting is Quoting.DOUBLE
        expansion = Expansion("backquote", i, end, "", quoted, tuple(tokens))
        return Piece(i, end, text[i:end], quoting, expansion=expansion)

    def _arithmetic(self, i: int, quoting: Quoting) -> Piece:
        """``$((...))`` to where its parentheses balance (nothing else inside counts)."""
        text = self.text
        j = arithmetic_end(text, i)
        if j is None:
            self.problems.append(Problem("$((", i))
            j = len(text)
        self._mark(i, j, quoting)
        self.position = j
        # Substitutions inside still run first: read the expression on its own for them.
        expression = text[i + 3 : j - 2 if text.endswith("))", 0, j) else j]
        inner = _Reader(expression, quotes_only=False, depth=self.depth)
        inside = [
            expansion
            for token in inner.read(Quoting.NONE)
            if isinstance(token, Word)
            for expansion in token.expansions
        ]
        quoted = quoting is Quoting.DOUBLE
        expansion = Expansion("arithmetic", i, j, "", quoted, inside=tuple(inside))
        return Piece(i, j, text[i:j], quoting, expansion=expansion)

    def _braced(self, i: int, quoting: Quoting) -> Piece:
        """``${...}`` to its closing brace (quotes and expansions inside it read too)."""
        text = self.text
        name_start = i + 3 if text[i + 2 : i + 3] in ("#", "!") else i + 2
        name = text[name_start : _name_end(text, name_start)]
        self._mark(i, i + 2, quoting)
        j = i + 2
        inside: list[Expansion] = []
        while j < len(text) and text[j] != "}":
            if text[j] == "\\":
                self._mark(j, j + 2, quoting)
                self._escape(j)
                j += 2
                continue
            self.position = j
            if text[j] == "'" and quoting is Quoting.NONE:
                self._single(j)
            elif text[j] == '"':
                inside += _expansions(self._double())
            elif text[j] in "$`":
                inside += _expansions([self._expansion(j, quoting)])
            else:
                self._mark(j, j + 1, quoting)
                self.position = j + 1
            j = self.position
        if j >= len(text):
            self.problems.append(Problem("${", i))
        else:
            self._mark(j, j + 1, quoting)
        self.position = end = min(j + 1, len(text))
        quoted = quoting is Quoting.DOUBLE
        expansion = Expansion("braced", i, end, name, quoted, inside=tuple(inside))
        return Piece(i, end, text[i:end], quoting, expansion=expansion)


def arithmetic_end(text: str, start: int) -> int | None:
    """The index just after the ``$((...))`` at ``start``, where its parentheses balance;
    None when they never do."""
    depth = 0
    for i in range(start + 1, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i + 1
    return None


_WORD_BREAKS = frozenset(METACHARACTERS + "\\'\"$`")


def _expansions(pieces: list[Piece]) -> list[Expansion]:
    return [piece.expansion for piece in pieces if piece.expansion is not None]


def _control_operator_at(text: str, i: int) -> str | None:
    return _longest(text, i, _CONTROL) or None


def _longest(text: str, i: int, operators: frozenset[str]) -> str:
    """The longest of ``operators`` (three characters at most) at ``i``, else ``""``."""
    for size in (3, 2, 1):
        if text[i : i + size] in operators:
            return text[i : i + size]
    return ""


_CONTROL = frozenset(CONTROL_OPERATORS)
_REDIRECTION = frozenset(REDIRECTIONS)


def _here_document_opener(redirection: Redirection | None) -> list[Redirection]:
    if redirection is None or redirection.target is None:
        return []
    return [redirection] if redirection.operator in ("<<", "<<-") else []


def _name_end(text: str, start: int) -> int:
    """The end of the parameter name at ``start`` (``start`` itself when there is none)."""
    if start < len(text) and text[start] in _SPECIAL_PARAMETERS:
        return start + 1
    end = start
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return end if end == start or not text[start].isdigit() else start
