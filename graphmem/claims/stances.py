"""Stances from text (docs/perception.md#claims): who a speaker suspects and who they trust, the way players of these
games say it.

Players rarely say "X is a traitor". They say "I suspect Fletcher", "Riley's behaviour is concerning", "Casey and
Taylor seem a bit off to me", "we should keep an eye on Morgan", "let's eliminate Beef", "I trust Casey",
"Gwendolyn seems genuine", "we shouldn't vote out Parker". :class:`StanceExtractor` turns such sentences into
claims with the speaker as subject and a player as object:

- ``suspects`` (polarity True): an accusation or a call to banish; ``suspects`` False: "I don't suspect X",
  "I'm not worried about X";
- ``trusts`` (polarity True): trust, vouching, defending; ``trusts`` False: "I don't trust X", "X can't be
  trusted".

The patterns (:data:`PATTERNS`, each named; the tests hold each on the real sentences it was written for) read one
sentence at a time. Player names are matched whole-word ignoring case (possessives "Riley's", "Sudz'" included), and
a list of names closed by "and" or "or" ("Casey, Morgan, and Taylor seem off") gives one claim per name. "you" and
"your" are the addressee: the one player a private statement is told to, or the player a sentence opens by
addressing ("Gwendolyn, your vote felt off to me"); otherwise "you" gives nothing. "he", "she", "they", "him",
"her", "them", "his", "their" are the one other player the sentence names (after the name), or else the one the
sentences before named; a sentence that opens with such a pronoun keeps referring to that player even when it
names another ("I'm voting out Beef. He's been deflecting from Braxton, ..."). Precision over recall:

- questions give nothing (a statement followed by a trailing question, "I'm watching Sudz, what do you think?",
  keeps its statement), nor does the part of a sentence from a conditional ("if", "unless", "whether", ...), from
  what has not happened ("before I trust them"), from reported speech or thought ("Taylor said", "they seem to
  think") or from someone else's persuading ("trying to convince us that X is a threat") on, nor quoted speech;
- a doubt before a stance: "I'm not sure X is suspicious" gives nothing, "I'm not sure we can trust X" is
  distrust;
- a subject must open its clause (after optional lead-ins such as "I think", "honestly", "I've noticed that",
  "but"): in "Sudz's vote against Ellis seems off" the suspect is Sudz, not Ellis;
- a statement that gives one player both a positive and a negative stance gives that player none (an ambiguous
  text takes no side);
- the speaker is never their own object.

Measured on the 40 real games (``python -m bench.stance_coverage DIR``; docs/perception.md): of the
statements that name another player, 58% yield a stance on a player they name; on a labelled sample of 80 real
statements not used to write the patterns (tests/unit/claims/test_claims_stances.py), precision 1.00 (51/51) and recall
0.67 (51/76).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from graphmem.logs.schema import STANCE_PREDICATES, Claim

SUSPECTS, TRUSTS = sorted(STANCE_PREDICATES)
"""The stance predicates (docs/perception.md#claims; their one home is the log format's STANCE_PREDICATES)."""

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"'})
_QUOTED = re.compile(r'"[^"\n]*"')
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\s*\n\s*")


def sentences(text: str) -> list[str]:
    """The sentences of a statement as every claim reader reads them (role, side and vote claims in
    :mod:`graphmem.claims.extract`, stances here): typographic apostrophes and quotation marks made plain, quoted
    speech dropped (quoting another player claims nothing), split after ``.``, ``!`` or ``?`` and at line breaks."""
    return _SENTENCE.split(_QUOTED.sub(" ", text.translate(_APOSTROPHES)))

_HYPOTHETICAL = re.compile(r"\b(?:if|unless|whether|suppose|supposing|assuming|imagine|pretend|hypothetically|"
                           r"what if|in case|otherwise|before|until|till)\b", re.IGNORECASE)
"""Where a sentence stops asserting: a conditional, or a clause of what has not happened ("... before I trust them
completely")."""

# Placeholders: a player is "<i>" (index in the extractor's name list), a possessive "<i>'s".
P = r"<\d+>"
LIST = rf"{P}(?:(?:\s*,\s*{P})*\s*,?\s+(?:and|or)\s+{P})?(?:\s+too|\s+both)?"
"""One player or a list of players closed by "and" or "or" ("<1>, <2>, and <3>"; "<1>, <2>" is no list: the
second name usually starts a clause, as in "I'm with <1>, <2>'s moves feel off")."""
POSS = rf"{P}(?:'s?|s')?"
_GAP = r"(?:[^.;:]{0,60}?\s)?"
_INTENSE = (r"(?:(?:a\s+)?(?:little|bit|lot)\s+|a\s+little\s+bit\s+|really\s+|very\s+|too\s+|kind\s+of\s+|"
            r"kinda\s+|pretty\s+|quite\s+|super\s+|way\s+too\s+|so\s+|extremely\s+|definitely\s+|more\s+and\s+more\s+|"
            r"more\s+|most\s+|increasingly\s+|somewhat\s+|slightly\s+|rather\s+|overly\s+|all\s+|just\s+|also\s+|"
            r"still\s+|genuinely\s+|truly\s+|clearly\s+|honestly\s+|now\s+)*")
_BE = (r"(?:is|are|was|were|'s|'re|seems?|seemed|(?:has|have|had|'s|'ve)\s+(?:(?:definitely|really|clearly|just|always|"
       r"still|also|certainly|obviously|probably|actually|totally|recently|lately)\s+)?been|is\s+being|are\s+being|"
       r"looks?|looked|appears?|appeared|feels?|felt|comes?\s+across\s+as|came\s+across\s+as|"
       r"(?:might|may|could|must|would)\s+be|seems?\s+to\s+be|(?:has|have|'s|'ve)\s+been\s+acting|(?:is|are|'s|'re)"
       r"\s+acting|(?:was|were|had\s+been)\s+acting|acts?|acted|(?:has|have|'s|'ve)\s+been\s+behaving|"
       r"(?:is|are|'s|'re)\s+behaving|seem\s+to\s+be|being|acting|behaving)")
_BAD = (r"(?:suspicious(?:ly)?|suspect|shady|sketchy|fishy|off|sus|odd|strange|weird|cagey|evasive|defensive|"
        r"deceptive|dishonest|manipulative|untrustworthy|two-faced|sneaky|slippery|shifty|inconsistent|erratic|"
        r"questionable|concerning|alarming|worrying|troubling|fake|insincere|calculated|calculating|"
        r"(?:a|the|our)\s+(?:(?:big(?:ger|gest)?|real|serious|potential|major|huge|clear|top|main|prime|next)\s+)?"
        r"(?:threat|risk|red\s+flag|liar|danger|liability|problem|target|priority)|dangerous|a\s+liability|edgy|"
        r"power-hungry|all\s+over\s+the\s+place|dodging\s+questions|evading\s+questions|"
        r"too\s+(?:quiet|eager|quick|keen|aggressive|pushy|defensive|cautious|calm|smug|vocal|focused|nice|"
        r"agreeable|friendly|invested|interested|passive|reactive|silent|careful|secretive|evasive|loud|"
        r"observant|nosy|curious|strategic)|"
        r"(?:a\s+|the\s+|one\s+of\s+the\s+)?(?:traitors?|traitorous|guilty)|up\s+to\s+something|"
        r"hiding\s+(?:something|agendas?|an\s+agenda|things|a\s+lot)|not\s+(?:being\s+)?"
        r"(?:honest|genuine|trustworthy|truthful|straight)|lying|playing\s+(?:us|games|both\s+sides|a\s+game)|"
        r"trying\s+to\s+(?:deflect|distract|manipulate|mislead|divert|steer|sway|control|throw\s+(?:us|people|"
        r"everyone)\s+off|cover|hide|blend\s+in|fly\s+under|stay\s+under|frame|pin|shift|take\s+charge|"
        r"take\s+control)|deflecting|"
        r"manipulating|misleading|covering|pushing\s+an?\s+(?:agenda|narrative))")
"""What a suspected player is, seems or does ("seems a bit off", "is hiding something", "has been too quiet")."""
_GOOD = (r"(?:trustworthy|innocent|genuine|honest|reliable|solid|legit|legitimate|sincere|loyal|trusted|"
         r"(?:a\s+)?(?:faithful|good\s+ally|true\s+ally|ally|good\s+egg)|on\s+our\s+side|one\s+of\s+us|"
         r"on\s+the\s+level|above\s+board|straight\s+with\s+(?:me|us)|being\s+(?:honest|genuine|straight))")
"""What a trusted player is or seems ("seems genuine", "is trustworthy", "is on our side")."""
_BEHAVIOUR = (r"(?:behaviou?r|actions?|votes?|voting(?:\s+(?:behaviou?r|pattern|history|record))?|vote\s+history|"
              r"moves?|comments?|remarks?|words|silence|quietness|reaction|response|tone|story|push|pushing|"
              r"accusations?|eagerness|vibe|attitude|defensiveness|defen[cs]e|excuses?|explanation|reasoning|"
              r"logic|behaviou?r\s+lately|shift|flip|switch|turn|change|u-turn|strategy|play|gameplay|approach|"
              r"focus|insistence|motives?|intentions|agenda|interactions?|alliances?|questions|timing|"
              r"enthusiasm|aggression|suggestions?|choices?|decisions?|claims?|arguments?|statements?|"
              r"messages?|conduct|manner|demeanou?r|hesitation|reluctance|nervousness|reasons?|pattern|"
              r"inconsistenc(?:y|ies))")
"""Nouns of what a player does, whose judgement is a judgement of the player ("Riley's voting pattern")."""
_BAD_NOUN = (r"(?:suspicious|shady|sketchy|odd|strange|weird|erratic|questionable|inconsistent|deceptive|fishy|sus|"
             r"evasive|defensive|sneaky|shifty|contradictory|aggressive|manipulative)")
_BAD_RESULT = (r"(?:suspicious|shady|sketchy|fishy|off|sus|odd|strange|weird|concerning|alarming|worrying|"
               r"troubling|questionable|inconsistent|a\s+(?:big\s+|huge\s+|major\s+)?red\s+flag|red\s+flags|"
               r"(?:some\s+|a\s+few\s+|serious\s+|major\s+)?(?:red\s+flags|flags|suspicions?|concerns?|doubts?|"
               r"questions|eyebrows|alarm\s+bells)|traitor|"
               r"like\s+a\s+(?:traitor|cover)|rash|calculated|out\s+of\s+character|(?:too\s+)?convenient|forced|"
               r"fake|staged|rehearsed|deliberate|strategic|manipulative|deceptive|a\s+(?:tactic|ploy|distraction))")
_LEAD = re.compile(
    r"^(?:(?:and|but|so|also|well|look|listen|honestly|frankly|okay|ok|alright|yes|yeah|now|again|still|plus|"
    r"however|though|personally|admittedly|truthfully|right\s+now|at\s+this\s+point|for\s+now|to\s+me|"
    r"to\s+be\s+(?:honest|fair|clear)|in\s+my\s+opinion|if\s+you\s+ask\s+me|between\s+us|between\s+you\s+and\s+me|"
    r"I\s+have\s+to\s+say|I\s+gotta\s+(?:be\s+honest|say)|I\s+must\s+say|I'll\s+be\s+honest|"
    r"after\s+(?:careful\s+)?(?:consideration|thinking|observing[^,]*|listening[^,]*|everything)|"
    r"I\s+(?:really\s+|honestly\s+|still\s+|also\s+|genuinely\s+|kind\s+of\s+|kinda\s+|do\s+|just\s+)?"
    r"(?:think|believe|feel|guess|suspect\s+that|reckon|sense|fear|worry)(?:\s+like)?|"
    r"I(?:'m|\s+am)\s+(?:starting|beginning|inclined|leaning)\s+to\s+(?:think|believe|feel)(?:\s+like)?|"
    r"I(?:'ve|\s+have)\s+(?:been\s+)?(?:noticed|noticing|seen|realized|realised|observed|observing|thinking|"
    r"wondering|found|picked\s+up)(?:\s+(?:a\s+lot|lately|recently|about\s+it|and))?|"
    r"I\s+(?:noticed|realized|realised|saw|see|found|sense|can\s+see|can\s+tell|must\s+admit|admit)|"
    r"it\s+(?:seems|feels|looks|appears)\s+(?:like|to\s+me|as\s+if|as\s+though)?|"
    r"(?:it's|it\s+is)\s+(?:clear|obvious|possible|likely|interesting|worth\s+noting|strange|odd)|"
    r"I(?:'m|\s+am)\s+(?:sure|certain|convinced|positive|worried|afraid|concerned)|"
    r"my\s+(?:gut|instinct|instincts|hunch|feeling|sense)\s+(?:says|tells\s+me|is|are)|"
    r"(?:something|someone)\s+tells\s+me|the\s+(?:way|fact)\s+I\s+see\s+it(?:\s+is)?|"
    r"(?:hey|hi|hello)(?:\s+(?:everyone|all|guys|team|folks|there))?|everyone|folks|guys|team)\b"
    r")(?:\s+that\b)?[\s,!:;\-\u2014\u2013]*",
    re.IGNORECASE,
)
"""Lead-ins a stance may follow at the start of its clause (repeated: "Honestly, I think that ...")."""
_BOUNDARY = r"(?:^|[,;:(\u2014\u2013]\s*|\s-+\s+|\s(?:and|but|so|because|since|although|though|while|whereas|plus|" \
            r"yet|as|especially\s+since|which\s+means|now|that|like|feeling|sense|impression|hunch)\s+)"
"""Where a clause starts: the stance's subject must follow one of these (after lead-ins)."""


@dataclass(frozen=True)
class Pattern:
    """One stance pattern: ``name`` (tests and docs cite it), the compiled ``regex`` (groups ``who`` and
    optionally ``neg``), the ``predicate`` it gives and its ``polarity`` (flipped when ``neg`` matched)."""

    name: str
    regex: re.Pattern[str]
    predicate: str
    polarity: bool


def _p(name: str, body: str, predicate: str, polarity: bool = True, *, clause: bool = True) -> Pattern:
    start = _BOUNDARY if clause else r"(?:^|(?<![\w<>]))"
    return Pattern(name, re.compile(start + body, re.IGNORECASE), predicate, polarity)


_I = r"\bI(?:'m|\s+am|'ve|\s+have|'d|\s+would|'ll|\s+will|\s+do|\s+did|\s+was)?"
"""The speaker as subject, with a contracted or spelled-out auxiliary."""
_NOT = r"\s+(?:not|don't|do\s+not|didn't|did\s+not|can't|cannot|can\s+not|won't|will\s+not|no\s+longer|never)"
"""A negation after the subject: flips a pattern's polarity ("I'm not worried about X", "I don't trust X")."""
_ADV = (r"(?:\s+(?:really|still|also|honestly|truly|genuinely|definitely|totally|completely|fully|entirely|just|"
        r"kind\s+of|kinda|starting\s+to|beginning\s+to|always|now|been|getting|growing|feeling|a\s+(?:little|bit)|"
        r"a\s+little\s+bit|more|very|quite|pretty|super|increasingly|somewhat|slightly|rather|becoming|even|too|"
        r"personally|actually|already|certainly|absolutely|going\s+to|gonna|(?:'m|am)\s+(?:not\s+)?going\s+to)\b)*"
        r"\s+")
"""Adverbs and auxiliaries between the subject and the verb of a first-person stance."""
_WE = r"(?:we|I)\s+(?:(?:really|definitely|probably|all|both|just|still|honestly|seriously)\s+)*"
_CALL = (r"(?:should|need\s+to|have\s+to|must|ought\s+to|got\s+to|gotta|can|could|might\s+want\s+to|"
         r"want\s+to|'ll\s+have\s+to|'d\s+better|had\s+better)")
_OUT = (r"(?:vote\s+out|vote\s+off|eliminate|banish|get\s+rid\s+of|remove|take\s+out|kick\s+out|boot\s+out|"
        r"consider|look\s+(?:closely\s+)?(?:at|into)|investigate|question|expose|push\s+out|"
        r"send\s+home|focus\s+on\s+eliminating|focus\s+on\s+getting\s+rid\s+of|target|go\s+after|consider\s+eliminating|"
        r"think\s+about\s+eliminating|look\s+(?:closely\s+)?at\s+eliminating|push\s+(?:out|for\s+eliminating)|"
        r"vote\s+(?:for|against)|vote\s+to\s+(?:eliminate|banish|remove))")
_NEG_CALL = (r"(?:shouldn't|should\s+not|don't\s+need\s+to|can't|cannot|mustn't|must\s+not|won't|will\s+not|"
             r"wouldn't|would\s+not)")

PATTERNS: tuple[Pattern, ...] = (
    # -- suspicion ------------------------------------------------------------------------------------------------
    _p("i-suspect", rf"{_I}(?P<neg>{_NOT})?{_ADV}(?:suspect(?:ing|ed)?|suspicious\s+(?:of|about)|"
       rf"(?:have|had|having)\s+(?:(?:some|my|a\s+few|serious|real|growing|any|no)\s+)?(?:suspicions|doubts|"
       rf"concerns|reservations)\s+(?:about|regarding|over|on)|(?:worried|concerned|wary|uneasy|nervous|skeptical|"
       rf"sceptical|doubtful)\s+(?:about|of|with|around)|getting(?:\s+a)?{_ADV}(?:weird|bad|strange|odd|off|"
       rf"shady|sus|funny|sketchy)\s+(?:vibes?|feeling)\s+(?:from|about)|(?:have|had)\s+a{_ADV}(?:bad|weird|"
       rf"strange|funny)\s+feeling\s+about|keeping\s+(?:an|a\s+close|my|a|both)\s+eyes?\s+on|watching)\s+"
       rf"(?P<who>{LIST})(?!'s?\s+(?:back|gut|instinct|judgement|judgment|read|lead|advice))", SUSPECTS, clause=False),
    _p("no-good-feeling", rf"{_I}\s+(?:don't|do\s+not)(?:\s+have)?(?:\s+a)?{_ADV}(?:good|great|positive)\s+"
       rf"(?:feeling|vibes?)\s+(?:about|from)\s+(?P<who>{LIST})", SUSPECTS, clause=False),
    _p("is-suspicious", rf"(?P<who>{LIST})\s+(?:(?:{_INTENSE})(?:{_BE})\s+)+(?:{_INTENSE})(?:{_BAD})\b"
       rf"(?:\s+to\s+me)?", SUSPECTS),
    _p("behaviour-is-suspicious", rf"(?P<who>{POSS})\s+(?:(?:recent|sudden|quick|early|earlier|latest|last|"
       rf"whole|constant|repeated|first|own|own\s+recent|continued|previous|late|initial|eager|hasty|abrupt|"
       rf"strong|aggressive|consistent|insistent)\s+)*{_BEHAVIOUR}\b{_GAP}(?:(?:(?:{_INTENSE})(?:{_BE}|raises?|"
       rf"raised|raising|is\s+raising|has\s+raised|(?:give|gives|gave|has\s+given)\s+me|make|makes|made|has\s+made|"
       rf"sets?\s+off|set\s+off|rings?|rang|screams?|screamed|smells?(?:\s+like)?)\s+)+(?:me\s+)?(?:{_INTENSE})"
       rf"(?:{_BAD_RESULT})\b|(?:don't|doesn't|do\s+not|does\s+not|didn't|did\s+not)\s+add\s+up)", SUSPECTS),
    _p("suspicious-behaviour", rf"(?P<who>{POSS})\s+(?:{_INTENSE})(?:{_BAD_NOUN})\s+(?:\w+\s+)?{_BEHAVIOUR}\b",
       SUSPECTS, clause=False),
    _p("something-off-about", rf"(?:there's|there\s+is|something(?:'s|\s+is)?|something\s+(?:seems|feels))\s+"
       rf"(?:{_INTENSE})(?:something\s+)?(?:off|fishy|shady|strange|weird|odd|not\s+right|suspicious|sketchy)\s+"
       rf"(?:about|with)\s+(?P<who>{LIST})", SUSPECTS, clause=False),
    _p("eye-on", rf"(?:keep|keeping|kept|have|having|put|putting)\s+(?:an|a\s+close|a\s+careful|our|my|both|"
       rf"a\s+closer|close|closer|all|an\s+extra)?\s*eyes?\s+on\s+(?:(?:everyone|everybody|all\s+of\s+them|"
       rf"the\s+others|others),?\s+(?:especially|particularly|but\s+especially)\s+)?(?P<who>{LIST})(?!'s?\s+(?:back|interactions\s+"
       rf"with\s+me))", SUSPECTS, clause=False),
    _p("watch", rf"(?:^|\b(?:we|I|let's|lets|should|must|need\s+to|to|gotta|'ll|will|been|keep|'m|am|are|'re)\s+)"
       rf"(?:{_INTENSE})(?:watch|watching|monitor|monitoring|scrutini[sz]e|scrutini[sz]ing)\s+(?P<who>{LIST})"
       rf"(?:'s\s+\w+)?\s+(?:closely|carefully|like\s+a\s+hawk|very\s+closely|more\s+closely|more\s+carefully)",
       SUSPECTS, clause=False),
    _p("call-to-banish", rf"(?:{_WE}{_CALL}\s+(?:(?:probably|definitely|seriously|really|all|just|also|now|"
       rf"collectively|then)\s+)*|(?:let's|lets|let\s+us)\s+(?:(?:just|all|finally|also|now|definitely)\s+)*|"
       rf"(?:it's|it\s+is)\s+(?:(?:probably|definitely|finally|now)\s+)*(?:time|best|safest|smart|wise|better)\s+"
       rf"(?:(?:for\s+us\s+)?to\s+|(?:that\s+)?we\s+)|(?:I\s+)?(?:suggest|propose|recommend|say|vote)\s+(?:that\s+)?"
       rf"we\s+|I(?:'m|\s+am)\s+(?:(?:really|now|definitely|strongly)\s+)*(?:inclined|going|leaning|leaning\s+towards?|"
       rf"ready|planning|thinking\s+of|considering)\s+(?:to\s+)?|I\s+(?:want|plan|intend|need|have\s+decided|"
       rf"decided)\s+to\s+|(?:my|our)\s+(?:vote|choice|target|pick)\s+(?:is|goes|will\s+go)\s+(?:to\s+)?)"
       rf"(?:{_OUT}|(?:vote|voting)\s+(?:for\s+)?)\s*(?:eliminating\s+)?(?P<who>{LIST})(?!'s?\s)", SUSPECTS,
       clause=False),
    _p("out-after-name", rf"(?:{_WE}{_CALL}\s+(?:(?:just|also|now|then)\s+)*|(?:let's|lets|let\s+us)\s+(?:just\s+)?|"
       rf"(?:time|best)\s+to\s+)?(?:take|get|vote|kick|boot|push|send|knock|focus\s+on)\s+(?P<who>{LIST})\s+"
       rf"(?:out|off|next|home|first)\b", SUSPECTS),
    Pattern("target-first", re.compile(
        rf"(?:^|[:;\u2014\u2013]\s*|\s-+\s+|(?:let's|lets|we\s+(?:should|need\s+to|must|have\s+to|gotta)|I'd\s+rather|"
        rf"(?:it's|it\s+is)\s+(?:time|best|better|safest|wise|smart))\b[^.;]{{0,60}}?\s(?:and|to)\s+)"
        rf"(?:target|push|eliminate|vote\s+out|banish|expose|remove|get\s+rid\s+of)\s+(?P<who>{LIST})(?!'s?\s)",
        re.IGNORECASE), SUSPECTS, True),
    _p("share-suspicions", rf"(?:share|agree\s+with|leaning\s+towards?|with\s+you\s+on|same\s+page\s+about)\s+"
       rf"(?:your|his|her|their|{P}'s?)\s+(?:{_INTENSE})(?:suspicions?|concerns?|doubts?|read|worries)\s+"
       rf"(?:about|on|regarding|over)\s+(?P<who>{LIST})", SUSPECTS, clause=False),
    _p("bad-vibe", rf"\b(?:got|get|getting|have|had|having)(?:\s+a)?{_ADV}(?:bad|weird|strange|odd|off|shady|sus|"
       rf"funny|sketchy)\s+(?:vibes?|feeling)\s+(?:from|about)\s+(?P<who>{LIST})", SUSPECTS, clause=False),
    _p("voting-out", rf"(?:I(?:'m|\s+am|'ll|\s+will|\s+also|\s+still|'d|\s+would)?\s+(?:(?:also|still|now|"
       rf"definitely|gonna|going\s+to|be)\s+)*(?:vote|voting|votin'|cast(?:ing)?\s+my\s+vote)\s+(?:(?:to\s+"
       rf"(?:eliminate|banish|remove|get\s+rid\s+of|vote\s+out)|for|against|out|off)\s+)?|(?:vote|voting)\s+)"
       rf"(?P<who>{LIST})(?:\s+(?:out|off))?(?!'s?\s)", SUSPECTS, clause=False),
    _p("should-go", rf"(?P<who>{LIST})\s+(?:(?:really|definitely|probably)\s+)*(?:should|needs?\s+to|has\s+to|"
       rf"must|have\s+to|ought\s+to)\s+(?:(?:really|definitely|probably)\s+)*(?:go|leave|be\s+(?:eliminated|"
       rf"voted\s+out|banished|removed|next|the\s+one\s+to\s+go|our\s+(?:next\s+)?target))", SUSPECTS),
    _p("cannot-be-trusted", rf"(?P<who>{LIST})\s+(?:(?:really|just|simply)\s+)*(?:can't|cannot|can\s+not|"
       rf"shouldn't|should\s+not|isn't\s+to|is\s+not\s+to)\s+be\s+trusted", TRUSTS, False),
    _p("not-convinced-trustworthy", rf"{_I}(?:(?:am|'m)\s+)?not\s+(?:{_INTENSE})(?:sure|convinced)\s+(?:that\s+)?"
       rf"(?P<who>{LIST})\s+(?:is|are|has\s+been|have\s+been)\s+(?:{_INTENSE})(?:trustworthy|innocent|genuine|"
       rf"honest|being\s+honest|telling\s+the\s+truth|faithful)", TRUSTS, False, clause=False),
    # -- trust ----------------------------------------------------------------------------------------------------
    _p("i-trust", rf"{_I}(?P<neg>{_NOT}|(?:'m|\s+am)\s+not\s+(?:sure|convinced|certain)(?:\s+(?:that|if))?"
       rf"(?:\s+I)?(?:\s+can)?)?"
       rf"{_ADV}(?:(?:leaning|inclined)\s+(?:towards?\s+)?trusting|trust(?:ing)?|vouch(?:ing)?\s+for|believe\s+in|"
       rf"have\s+faith\s+in|stand(?:ing)?\s+(?:with|by)|sid(?:e|ing)\s+with|aligned\s+with|allied\s+with|"
       rf"(?:confident|good|comfortable|safe)\s+(?:about|in|with))\s+(?P<who>{LIST})(?!'s?\s+(?:vote|behaviou?r|"
       rf"actions?|moves?|push|decision|suggestion|motives?|intentions|silence))", TRUSTS, clause=False),
    _p("is-trustworthy", rf"(?P<who>{LIST})\s+(?:(?:{_INTENSE})(?:{_BE})\s+)+(?:{_INTENSE})(?:{_GOOD})\b",
       TRUSTS),
    _p("can-trust", rf"(?:we|I|you)\s+(?:can|could|should)\s+(?:(?:really|definitely|still|probably|totally|"
       rf"absolutely|fully)\s+)*trust\s+(?P<who>{LIST})(?!'s?\s)", TRUSTS, clause=False),
    _p("can-be-trusted", rf"(?P<who>{LIST})\s+(?:(?:really|definitely|probably|still)\s+)*(?:can|could|should)\s+"
       rf"be\s+trusted", TRUSTS),
    _p("same-side", rf"(?P<who>{LIST})\s+and\s+I\s+(?:(?:really|definitely|totally|both|still)\s+)*(?:are|have\s+"
       rf"been|'re)\s+(?:(?:really|definitely|totally|both|still|completely)\s+)*(?:on\s+the\s+same\s+(?:page|"
       rf"side|team|wavelength)|aligned|allies|a\s+team|working\s+together|in\s+this\s+together|on\s+the\s+same\s+"
       rf"side)", TRUSTS),
    _p("i-dont-think-suspicious", rf"I\s+(?:(?:really|honestly|just|still)\s+)*(?:don't|do\s+not)\s+(?:(?:really|"
       rf"honestly|actually)\s+)*(?:think|believe|feel\s+like)\s+(?:that\s+)?(?P<who>{LIST})\s+(?:{_BE})\s+"
       rf"(?:{_INTENSE})(?:{_BAD}|the\s+traitor|one\s+of\s+the\s+traitors)\b", TRUSTS, clause=False),
    _p("dont-banish", rf"(?:{_WE}{_NEG_CALL}\s+(?:(?:really|just|be\s+too\s+quick\s+to)\s+)*|(?:let's|lets)\s+not\s+"
       rf"(?:(?:rush\s+to|be\s+(?:too\s+)?quick\s+to|jump\s+to)\s+)?|don't\s+(?:rush\s+to\s+)?)"
       rf"(?:{_OUT}|(?:vote|voting)\s+(?:for\s+)?|suspect|doubt|blame|accuse|turn\s+on)\s*(?P<who>{LIST})(?!'s?\s)",
       TRUSTS, clause=False),
)
"""The stance patterns, in the order they are tried (every one is tried on every sentence)."""

_LIST = re.compile(LIST)
_TRAILING_QUESTION = re.compile(r"(?:[,;:\u2014\u2013]|\s-+)\s*(?:(?:so|and|but|now)\s+)?(?:what|who|how|do|does|did|"
                                r"have|has|any|would|could|can|should|is|are|right|thoughts|agree|wdyt|yeah)\b"
                                r"(?!.*[,;:\u2014\u2013]\s*(?:what|who|how|do|does|did|have|has|any|would|could|"
                                r"can|should|is|are|right|thoughts|agree)\b)", re.IGNORECASE)
"""The question that ends a sentence otherwise stating something ("I'm watching X, what do you think?"): the
statement before it counts, the question does not."""
_DOUBT = re.compile(r"(?:not\s+(?:\w+\s+)?(?:sure|certain|convinced)|unsure|don't\s+know|do\s+not\s+know|"
                    r"wonder(?:ing)?|doubt|question)(?:\s+(?:that|if|whether|about))?(?:\s+(?:I|we))?\s*$", re.IGNORECASE)
"""A doubt just before a stance ("I'm not sure we can trust X"): distrust for a trust pattern, nothing for a
suspicion pattern ("I'm not sure X is suspicious")."""
_REPORTED = re.compile(r"\b(?:he|she|they|{p}|someone|everyone|others|people|some|many)\s+(?:\w+\s+){0,2}?"
                       r"(?:said|says|say|think|thinks|thought|mentioned|mentions|claimed|claims|suggested|suggests|"
                       r"told\s+(?:me|us|you)|believe|believes|feel|feels|felt|pointed\s+out|points\s+out|argued|"
                       r"argues|seems?\s+to\s+think|seemed\s+to\s+think|wants?|wanted|accused|accuses|"
                       r"called\s+out|calls\s+out|are\s+saying|is\s+saying|were\s+saying|was\s+saying|"
                       r"brought\s+up|raised)\b".replace("{p}", P), re.IGNORECASE)
"""Reported speech or thought ("Taylor said ...", "they seem to think ..."): the rest of the sentence is someone
else's stance."""
_PERSUADING = re.compile(r"(?<!\bI\s)(?<!\bI'm\s)(?<!\bwe\s)\b(?:convinc(?:e|es|ing)|persuad(?:e|es|ing)|"
                         r"mak(?:e|es|ing)\s+(?:us|everyone|people|others)\s+(?:think|believe)|"
                         r"wants?\s+(?:us|everyone|people)\s+to\s+(?:think|believe)|claim(?:s|ed|ing)?|"
                         r"insist(?:s|ed|ing)?|suggest(?:s|ed|ing)|accus(?:e|es|ed|ing)|paint(?:s|ed|ing)?)\b",
                         re.IGNORECASE)
"""Someone else trying to make others believe something ("trying too hard to convince us that Gwendolyn is a
threat"): the rest of the sentence is not the speaker's stance."""
_ADDRESS = re.compile(rf"^(?:(?:hey|hi|hello|look|listen|okay|ok|so|well|honestly|and|but|now|yes|yeah|no)"
                      rf"[\s,!]+)*(?P<who>{P})\s*[,!:\u2014\u2013-]\s*(?!\s*{P}(?:'s?)?\s*(?:,|and\b|or\b|&))",
                      re.IGNORECASE)
_PRONOUN = re.compile(r"\b(?:(?P<subject>he|she|they)(?P<verb>'s|'re|'ve|'ll|'d)?|(?P<object>him|them)|"
                      r"(?P<possessive>his|their)|(?P<her>her)(?=\s+(?P<next>[\w-]+))?)\b", re.IGNORECASE)
"""Third-person pronouns, resolved to the one player the sentence (or the one before it) names."""
_YOU = re.compile(r"\b(?:you(?P<verb>'re|'ve|'ll|'d)?|(?P<possessive>your)|yours|yourself)\b", re.IGNORECASE)
_CONTRACTED = {"'re": " are", "'ve": " have", "'ll": " will", "'d": " would", "'s": "'s"}
_POSSESSED = re.compile(rf"^(?:{_BEHAVIOUR}|{_BAD_NOUN}|recent|sudden|quick|early|earlier|latest|last|whole|"
                        rf"constant|repeated|first|own|continued|previous|initial|eager|hasty|abrupt)\b",
                        re.IGNORECASE)
_SPLIT_POSSESSIVE = re.compile(rf"(?P<who>{P})'s(?=\s+(?:(?:definitely|really|clearly|just|always|still|also|"
                               rf"certainly|obviously|probably|actually|totally)\s+)?(?:(?P<next>been|acting|being|"
                               rf"not|so|really|a|an|too|definitely|clearly|just|always|getting|trying|playing|"
                               rf"hiding|lying|pushing|still|also|quite|pretty|very|kind|kinda|super|way|got|gone|"
                               rf"out|on|one|the|up|our|my|probably|likely|now|far|more|most)\b|(?:sus|shady|off|"
                               rf"suspicious|sketchy|fishy|innocent|faithful|genuine|trustworthy)(?:\s*[.,;:!?\u2014"
                               rf"\u2013-]|\s*$|\s+(?:and|but|to|too|now|though|as|because|since|so|for)\b)))",
                               re.IGNORECASE)
""""Riley's been" / "Riley's acting": a contraction of "is" or "has", not a possessive."""


class StanceExtractor:
    """Stances of one game's players (compiled once; reuse it for many statements).

    players : iterable of str, the game's player names (as in the header)
    """

    def __init__(self, players: Iterable[str]) -> None:
        self._names = sorted(set(players), key=len, reverse=True)
        self._canonical = {n.casefold(): n for n in self._names}
        alternatives = "|".join(re.escape(n) for n in self._names) or r"(?!x)x"
        self._name = re.compile(rf"(?<![\w<])(?P<name>{alternatives})(?P<poss>'s|'(?=\s)|s'(?=\s))?(?![\w>])",
                                re.IGNORECASE)

    def _index(self, name: str) -> int | None:
        canonical = self._canonical.get(name.casefold())
        return None if canonical is None else self._names.index(canonical)

    def _placeholders(self, sentence: str) -> str:
        def swap(m: re.Match[str]) -> str:
            return f"<{self._index(m['name'])}>" + ("'s" if m["poss"] else "")
        return self._name.sub(swap, sentence)

    @staticmethod
    def _you(sentence: str, index: int | None) -> str:
        """The sentence with "you"/"your" replaced by the addressee's placeholder (left as is without one)."""
        if index is None:
            return sentence

        def swap(m: re.Match[str]) -> str:
            if m["possessive"]:
                return f"<{index}>'s"
            return f"<{index}>" + _CONTRACTED.get((m["verb"] or "").casefold(), "")
        return _YOU.sub(swap, sentence)

    @staticmethod
    def _pronouns(sentence: str, index: int | None) -> str:
        """The sentence with he/she/they, him/them, his/their/her replaced by the placeholder of the one player
        they can refer to (left as is when there is none)."""
        if index is None:
            return sentence
        mark = f"<{index}>"

        def swap(m: re.Match[str]) -> str:
            if m["subject"]:
                return mark + _CONTRACTED.get((m["verb"] or "").casefold(), "")
            if m["object"]:
                return mark
            if m["possessive"] or (m["her"] and m["next"] and _POSSESSED.match(m["next"])):
                return mark + "'s"
            return mark
        return _PRONOUN.sub(swap, sentence)

    def extract(self, text: str, speaker: str | None, addressee: str | None = None) -> list[Claim]:
        """The stances of one statement, in order of appearance, one claim per (object, predicate, polarity).

        text : str, the statement; speaker : str or None, who said it (None: nothing, stances need a subject)
        addressee : str or None, the one player the statement is told to (private, to one player): "you" means them

        A player given both a positive stance (trusts, or not suspects) and a negative one (suspects, or not trusts)
        anywhere in the statement gets none.
        """
        found: list[Claim] = []
        for _, _, claim in self.matches(text, speaker, addressee):
            if claim not in found:
                found.append(claim)
        sign: dict[str, set[bool]] = {}
        for c in found:
            sign.setdefault(c.object, set()).add(stance_sign(c.predicate, c.polarity))
        return [c for c in found if len(sign[c.object]) == 1]

    def matches(self, text: str, speaker: str | None, addressee: str | None = None) -> list[tuple[str, str, Claim]]:
        """(pattern name, sentence, claim) for every pattern match in ``text``, before the statement-level
        ambiguity rule of :meth:`extract` (for tests and the measurement)."""
        if speaker is None:
            return []
        own = self._index(speaker)
        told = self._index(addressee) if addressee is not None else None
        out: list[tuple[str, str, Claim]] = []
        antecedent: int | None = None
        for sentence in sentences(text):
            sentence = " ".join(sentence.split())
            if not sentence:
                continue
            marked = self._placeholders(sentence)
            opened = _ADDRESS.match(marked)
            you = told
            if opened is not None:
                you = int(opened["who"][1:-1])
                marked = marked[opened.end():]
            named = list(dict.fromkeys(int(i) for i in re.findall(r"<(\d+)>", marked)))
            others = [i for i in named if i not in (own, you)]
            first = marked.find(f"<{others[0]}>") if others else len(marked)
            before = antecedent
            if antecedent is not None and _PRONOUN.search(marked[:first]):
                pass  # the sentence goes on about the player a pronoun before its names refers to
            elif len(others) == 1:
                antecedent = others[0]
            elif others:
                antecedent = None  # several players: a pronoun could be any of them
            if re.sub(r"[^\w?.!<>]+$", "", sentence).endswith("?"):
                asked = _TRAILING_QUESTION.search(marked)
                marked = marked[:asked.start()] if asked is not None else ""
            if marked:
                out.extend((name, sentence, claim) for name, claim in self._claims(marked, speaker, you, before,
                                                                                    antecedent, first))
        return out

    def _claims(self, marked: str, speaker: str, you: int | None, before: int | None, after: int | None,
                first: int) -> list[tuple[str, Claim]]:
        """The claims of one sentence (placeholders in, the addressee's vocative removed). Pronouns before
        position ``first`` (the first other player named) refer to ``before``, later ones to ``after``."""
        for cut in (_HYPOTHETICAL, _REPORTED, _PERSUADING):
            found = cut.search(marked)
            if found is not None:
                marked = marked[:found.start()]
                first = min(first, len(marked))
        head, tail = self._you(marked[:first], you), self._you(marked[first:], you)
        marked = _contractions(self._pronouns(head, before) + self._pronouns(tail, after))
        marked = _strip_leads(marked)
        inside = {i for whole in _LIST.finditer(marked) for i in range(whole.start() + 1, whole.end())}
        claims: list[tuple[str, Claim]] = []
        for pattern in PATTERNS:
            for m in pattern.regex.finditer(marked):
                if m.start("who") in inside:
                    continue  # a later name of a list: the list's subject is its first name
                doubted = bool(_DOUBT.search(marked[:m.start()].rstrip(" ,")))
                if doubted and pattern.predicate == SUSPECTS:
                    continue
                for index in re.findall(r"<(\d+)>", m["who"]):
                    name = self._names[int(index)]
                    if name.casefold() == speaker.casefold():
                        continue
                    negated = ("neg" in pattern.regex.groupindex and m["neg"] is not None) != doubted
                    claim = Claim(subject=speaker, predicate=pattern.predicate, object=name,
                                  polarity=pattern.polarity != negated)
                    if (pattern.name, claim) not in claims:
                        claims.append((pattern.name, claim))
        return claims


def _contractions(marked: str) -> str:
    """"<1>'s been" -> "<1> has been", "<1>'s acting" -> "<1> is acting" (see :data:`_SPLIT_POSSESSIVE`)."""
    return _SPLIT_POSSESSIVE.sub(lambda m: m["who"] + (" has" if (m["next"] or "").casefold() in ("been", "got", "gone")
                                                       else " is"), marked)


def _strip_leads(text: str) -> str:
    text = text.lstrip("\"'*-\u2026. ")
    while True:
        stripped = _LEAD.sub("", text, count=1)
        if stripped == text:
            return text
        text = stripped


def stance_sign(predicate: str, polarity: bool) -> bool:
    """True for a positive stance (trusts, or does not suspect), False for a negative one (suspects, or does not
    trust)."""
    return (predicate == TRUSTS) == polarity
