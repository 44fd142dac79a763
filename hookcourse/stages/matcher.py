"""The matcher, by the public path hook authors import (``hookcourse.stages.matcher``).

It lives in stage matcher-and-dispatch's folder; this module only names it here.
"""

from hookcourse.stages.matcher_and_dispatch.reference import (
    MatchBranch,
    MatchResult,
    RuleSet,
    exact_names,
    explain_match,
    match_hook,
)

__all__ = ["MatchBranch", "MatchResult", "RuleSet", "exact_names", "explain_match", "match_hook"]
