"""Code diffs: what a signature or declaration, an error report and a comment look like in each
language family. The source compressor reads files that do not parse with the same patterns."""

from __future__ import annotations

import re

# Signatures and declarations per language family. Every pattern is used with `match` (anchored
# at the start of the code) and is free of nested ambiguous repetition, so each line costs time
# linear in its length.
_MODIFIERS = (
    r"(?:(?:public|private|protected|internal|static|final|abstract|sealed|virtual|override"
    r"|async|export|default|declare|readonly|open|inline|extern|unsafe|const|suspend|data"
    r"|partial|synchronized|native|pub(?:\([^)]*+\))?)\s++)*+"
)
# Every alternative of a pattern starts after the same blanks: `\s*+` comes once, before them
# (it takes every blank, so each alternative would start at the same place anyway), which spares
# the engine reading the indentation again for each alternative.
_DECORATOR = r"@[\w.]"
DECLARATIONS: dict[str, re.Pattern[str]] = {
    "python": re.compile(r"\s*+(?:(?:async\s++def|def|class)\s|" + _DECORATOR + ")"),
    "ruby": re.compile(r"\s*+(?:def|class|module)\s"),
    "shell": re.compile(r"\s*+(?:function\s++[\w.:-]++|[\w.:-]++\s*+\(\s*+\))\s*+(?:[{(]|$)"),
    "js": re.compile(
        r"\s*+(?:" + _MODIFIERS + r"(?:function\b|class\s|interface\s|enum\s|type\s++[\w$]++"
        r"\s*+(?:<[^>]*+>)?\s*+=)"
        r"|(?:export\s++)?(?:const|let|var)\s++[\w$]++\s*+(?::[^=]*+)?=\s*+(?:async\s++)?"
        r"(?:\([^)]*+\)|[\w$]++)\s*+(?::[^=]*+)?=>"
        r"|" + _MODIFIERS + r"(?:get\s++|set\s++)?\*?"
        r"(?!(?:if|for|while|switch|catch|with|return|function|typeof|await|new)\b)"
        r"[\w$#]++\s*+(?:<[^>]*+>)?\([^)]*+\)\s*+(?::[^{;]*+)?\{\s*+$|" + _DECORATOR + ")"
    ),
    "go": re.compile(r"\s*+(?:func\b|type\s++\w++\s++(?:struct|interface)\b)"),
    "rust": re.compile(
        r"\s*+(?:" + _MODIFIERS + r"(?:extern\s++\"[^\"]*+\"\s++)?"
        r"(?:fn\s|(?:struct|enum|trait|union|type|mod|impl|macro_rules!)\b)|#!?\[)"
    ),
    "c": re.compile(
        r"\s*+(?:(?:[\w@]++(?:\([^)]*+\))?\s++)*(?:class|interface|struct|enum|record|trait"
        r"|object|namespace|union|protocol|extension)\s++[\w$]"
        r"|(?:[\w@]++\s++)*(?:fun|func|def|function|fn)\s++[\w$<`]"
        r"|(?!(?:if|for|foreach|while|switch|catch|return|else|do|new|throw|case|sizeof"
        r"|delete|using|typedef|goto|await|yield|print|echo|assert)\b)"
        r"(?:[\w$:<>,.*&\[\]~@?]++\s++)+[*&]*+[\w$:~]++\s*+\("
        r"|" + _DECORATOR + ")"
    ),
    "sql": re.compile(
        r"(?i:\s*+create\s++(?:or\s++replace\s++)?(?:function|procedure|table|view|trigger))"
    ),
    "lua": re.compile(r"\s*+(?:local\s++)?function\b"),
}
FAMILY = {
    "python": "python",
    "ruby": "ruby",
    "shell": "shell",
    "javascript": "js",
    "typescript": "js",
    "tsx": "js",
    "go": "go",
    "rust": "rust",
    "sql": "sql",
    "lua": "lua",
    **dict.fromkeys(("java", "c", "cpp", "csharp", "kotlin", "swift", "php", "scala"), "c"),
}
# Error reporting. Each alternative starts with a letter, `.` or a quote, and checks the word
# boundary before its first letter looking back: the engine then skips ahead to those
# characters rather than trying each alternative at every position of the code.
ERROR_LINE = re.compile(
    r"r(?<=\br)aises?\b|t(?<=\bt)hrows?\b|p(?<=\bp)anic!?\b|a(?<=\ba)(?:bort\b|ssert\w*+\b)"
    # Error(, ValueError(, Err(, Exception {: Err at the start of a word, or Error or
    # Exception anywhere in one.
    r"|E(?:(?<=\bE)rr|rror|xception)\s*+[(!{]"
    r"|e(?<=\be)rrors\.New\b|f(?<=\bf)mt\.Errorf\b"
    r"|\.(?:error|exception|critical|fatal|fail|warn|warning)\s*+\("  # logger.error(, ctx.fail(
    r"|\"[^\"'\n]*?(?i:error|fail)|'[^\"'\n]*?(?i:error|fail)"  # "error" or "fail" in a string
)


# Every alternative of ERROR_LINE contains one of these words: a plain scan for them rules most
# lines out at a fraction of the full pattern's cost. It scans the lower-cased code: a
# case-sensitive alternation of literals is four times faster than an IGNORECASE one.
ERROR_WORDS = (
    *("rais", "throw", "panic", "abort", "assert", "err", "exception", "fail", "fatal"),
    *("critical", "warn"),
)
ERROR_HINT = re.compile("|".join(ERROR_WORDS))
# What the code of a declaration starts with, in the families whose patterns start with a word
# (after blanks): a line that starts otherwise is spared the pattern.
DECLARATION_STARTS = {
    "python": ("async", "def", "class", "@"),
    "ruby": ("def", "class", "module"),
    "go": ("func", "type"),
    "lua": ("local", "function"),
}
# The line comment of the families whose comments are line comments only (`_Comments`).
LINE_COMMENTS = {"python": "#", "ruby": "#", "shell": "#", "sql": "--", "lua": "--"}
