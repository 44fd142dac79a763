"""``hookcourse.shell.lex``: a command line read as a POSIX shell reads it, never raising."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hookcourse.shell import (
    MAX_NESTING,
    Comment,
    HereDocument,
    Operator,
    Problem,
    Quoting,
    Redirection,
    Word,
    lex,
    split,
    words,
)

LINE = "a=1 cmd \"x $HOME\" 'y' 2>&1 >out <<EOF # c\nbody $x\nEOF\nnext |& z && w; (q) &"


def kinds(text: str) -> list[str]:
    return [type(token).__name__ for token in lex(text).tokens]


def test_words_operators_redirections_comments_and_here_documents_in_text_order() -> None:
    tokens = lex(LINE).tokens
    assert [type(token).__name__ for token in tokens] == [
        "Word", "Word", "Word", "Word", "Redirection", "Redirection", "Redirection",
        "Comment", "Operator", "HereDocument", "Word", "Operator", "Word", "Operator",
        "Word", "Operator", "Operator", "Word", "Operator", "Operator",
    ]  # fmt: skip
    quoted = tokens[2]
    assert isinstance(quoted, Word)
    assert (quoted.raw, quoted.value, quoted.quoted) == ('"x $HOME"', "x $HOME", True)
    assert [expansion.name for expansion in quoted.expansions] == ["HOME"]
    duplicate = tokens[4]
    assert isinstance(duplicate, Redirection) and duplicate.target is not None
    assert (duplicate.fd, duplicate.operator, duplicate.target.value) == ("2", ">&", "1")
    body = tokens[9]
    assert isinstance(body, HereDocument) and (body.delimiter, body.body) == ("EOF", "body $x\n")
    comment = tokens[7]
    assert isinstance(comment, Comment) and comment.text == "# c"
    assert [token.text for token in tokens if isinstance(token, Operator)] == [
        "\n", "|&", "&&", ";", "(", ")", "&",
    ]  # fmt: skip
    assert [[word.value for word in command] for command in words(tokens)] == [
        ["a=1", "cmd", "x $HOME", "y"], ["next"], ["z"], ["w"], ["q"],
    ]  # fmt: skip


def test_each_expansion_is_one_piece_of_its_word() -> None:
    line = '${V:-"d e"} $((1+(2))) `b \\`c\\`` <(p) $(c "d)") $1 $'
    found = [
        [(expansion.kind, expansion.name) for expansion in word.expansions]
        for word in lex(line).tokens
        if isinstance(word, Word)
    ]
    assert found == [
        [("braced", "V")], [("arithmetic", "")], [("backquote", "")], [("process", "")],
        [("command", "")], [("variable", "1")], [],
    ]  # fmt: skip


def test_a_substitution_holds_its_commands_and_their_own_quoting() -> None:
    line = "echo \"$(git push 'a b')\""
    reading = lex(line)
    word = reading.tokens[1]
    assert isinstance(word, Word)
    (substitution,) = word.expansions
    assert [[w.value for w in c] for c in words(substitution.tokens)] == [["git", "push", "a b"]]
    assert substitution.quoted
    assert reading.quoting[line.index("git")] is Quoting.NONE
    assert reading.quoting[line.index("a b")] is Quoting.SINGLE
    assert reading.quoting[line.index("$(")] is Quoting.DOUBLE


def test_quote_removal_keeps_a_backslash_that_escapes_nothing_in_double_quotes() -> None:
    word = lex('"a\\b\\$c" d\\ e').tokens
    assert [token.value for token in word if isinstance(token, Word)] == ["a\\b$c", "d e"]


def test_open_constructs_are_problems_in_text_order() -> None:
    assert lex("echo \"a $(b 'c").problems == (
        Problem('"', 5),
        Problem("$(", 8),
        Problem("'", 12),
    )
    assert lex("cat <<EOF\nno end").problems == (Problem("<<", 4),)
    assert lex("echo `a").problems == (Problem("`", 5),)
    assert lex("echo ${a").problems == (Problem("${", 5),)
    assert lex("echo $((1").problems == (Problem("$((", 5),)


def test_quotes_only_reads_no_comment_expansion_or_here_document() -> None:
    assert kinds("a # b") == ["Word", "Comment"]
    assert kinds_quotes_only("a # b") == ["Word", "Word", "Word"]
    reading = lex("cat <<EOF\n$(x)\nEOF", quotes_only=True)
    assert not any(isinstance(token, HereDocument) for token in reading.tokens)
    assert not reading.problems
    inside = lex('b" c', quotes_only=True, within=Quoting.DOUBLE)
    assert [token.value for token in inside.tokens if isinstance(token, Word)] == ["b", "c"]
    assert inside.quoting[0] is Quoting.DOUBLE


def kinds_quotes_only(text: str) -> list[str]:
    return [type(token).__name__ for token in lex(text, quotes_only=True).tokens]


def test_nesting_past_the_limit_is_a_problem_not_a_crash() -> None:
    reading = lex("$(" * (MAX_NESTING + 50))
    assert Problem("nesting", 2 * MAX_NESTING) in reading.problems


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab $(){}`'\"\\;&|<>#\n=!-0123456789")), max_size=40))
def test_any_text_lexes_without_raising_and_every_character_has_its_quoting(text: str) -> None:
    for quotes_only in (False, True):
        reading = lex(text, quotes_only=quotes_only)
        assert len(reading.quoting) == len(text)
        assert list(reading.problems) == sorted(reading.problems, key=lambda p: p.start)
        for token in reading.tokens:
            assert 0 <= token.start <= token.end <= len(text)


def test_split_gives_the_values_of_a_lines_words() -> None:
    assert split("cd 'my folder' && ./prog cmd \"a b\"/c.json # kept") == [
        "cd", "my folder", "./prog", "cmd", "a b/c.json",
    ]  # fmt: skip
    assert split("echo 'open") is None
