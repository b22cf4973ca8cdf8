"""No accusation on a state the referee inferred (issue 11): simulated games under the realistic faults
that each ended in false accusations before, refereed with the console answering as the ground truth
says (the oracle). Each game is named by its seed; what went wrong in it is said beside it."""

import pytest

from referee.cards import card_name, parse_card
from referee.proposals import Ask, Flag
from referee.sensor_faults import parse_faults
from referee.table_referee import TableReferee
from referee.violations import Violation

from replay import replayed

RFID_ONLY = "realistic,camera=false"

#: (game seed, rules, faults): what made false accusations there before (the count on main before this work)
CASES = [
    # 33: a card shown and taken back earlier in the hand was not counted played when a pile read it;
    # the last trick never ended, the next hand's calls were taken for calls after the auction
    (700124, "classic", RFID_ONLY),
    # 22: the next deal's tags arriving in the hands were taken for take-backs of the last trick's
    # cards, seen picked up before its last card was named at the console
    (700077, "contree", RFID_ONLY),
    # 34: a card named at the console changed who won trick 3; trick 4, recorded in the turn the old
    # winner gave, was "out of turn" card after card
    (700240, "contree", RFID_ONLY),
    # 25: the console named a card recorded as that seat's card of the next trick too (already played)
    (700146, "classic", RFID_ONLY),
    # 1: a "belote" said with a card nobody read went with the seat's card of the trick before
    (700040, "contree", RFID_ONLY),
    # 2: a lead before the recorded winner's, when the last trick's record held a card shown and
    # taken back, was written out of turn without asking
    (800053, "contree", RFID_ONLY),
    # 2: a card played twice found once the hand was over; its hand's revoke stood
    (800270, "contree", RFID_ONLY),
    # 2: a card knocked into the zone of the seat whose turn it was made the cards before it "out of turn"
    (800029, "contree", RFID_ONLY),
    # 6: a card shown and taken back (its return reads missed) was recorded; the card really played,
    # put down a second later, was taken for the next trick's lead and ended the trick
    (800173, "contree", RFID_ONLY),
    # 5: the revokes the end-of-hand audit found in a hand whose record came out of step
    (700180, "contree", RFID_ONLY),
    # 3 (both sensors): a console correction changed a trick's winner; the next trick came out of turn
    (700097, "contree", "realistic"),
    # round 6, 3: a card shown and taken back settled a hundredth of a second before the card really
    # played landed in the same zone; that second card, put down before the trick was picked up, was
    # left to be the next trick's lead (now: which card did that player play? is asked)
    (2100121, "classic", RFID_ONLY),
    # round 6, 1 (both sensors): a tag that left a hand at trick 1 (shown, its return missed) gave its
    # seat to a camera misread of that card in another zone two tricks later: "out of turn"
    (2200076, "classic", "realistic"),
    # round 6, 1: a knocked card landed in the zone of a seat whose card of the last trick was recorded;
    # its trick's cards were taken for out of turn (now asked as a second card of that seat)
    (2400188, "contree", RFID_ONLY),
    # round 6, 1 (both sensors): a card the camera saw land and could not read, whose tag was first read
    # leaving at the pickup, stayed on the table as a second card and came back "out of turn" (in the
    # benchmark's run; main passes the game as this test replays it)
    (2400166, "classic", "realistic"),
    # round 6, 1 withdrawn (both sensors): a card shown and taken back still counted as on its way from
    # the hand; the camera's unreadable read of the card really played took its tag, and the hand came
    # out of step (a W out of turn was shown, then withdrawn)
    (2100315, "contree", "realistic"),
    # round 6, a miss and 1 withdrawn (both sensors): a camera misread in S's zone took E's tag of that
    # card leaving E's hand three seconds later, and S's out-of-turn card was written as E's
    (2100242, "classic", "realistic"),
    # round 6, a miss (camera only): N's card misread as W's card, put down just before, was taken for
    # W's card seen again; N's card was asked for at the pickup and placed before W's
    (2100255, "contree", "realistic,rfid=false"),
    # round 6, a miss that turned into 4 false (both sensors): a camera misread corrected by the tag
    # leaving the zone rested on that one tag read, which nothing could confirm; confirming it once it
    # could rewrote the play as first written (the misread), and the next trick came out of turn
    (2200145, "classic", "realistic"),
    # round 6, 1 withdrawn: N showed a card and took it back unread, then played one whose tag was only
    # read leaving the zone with the trick; that one was taken for the card shown first
    (2100193, "classic", RFID_ONLY),
    # round 6, 2 withdrawn: a trick picked up with every pickup read missed but one card leaving its
    # zone; the next trick's cards were recorded as that trick's (now: which card did S play? is asked)
    (2200244, "contree", RFID_ONLY),
    # round 6, 2 (camera only): a card knocked into another zone, read there as another card than the
    # one recorded (a misread), was taken for that seat's next card: the tricks after were out of turn
    (2500093, "contree", "realistic,rfid=false"),
    # round 6, 2 withdrawn: S's card, first read leaving its zone at a pickup nobody else saw, was
    # taken as shown and taken back; E and N, whose cards were seen leaving their hands, were
    # "out of turn" before S's next card
    (2500206, "contree", RFID_ONLY),
    # round 6, 1 withdrawn: W showed a card and took it back unread, then played one nobody saw; that
    # card, dealt to W, went to the pile with the trick (now: which card did W play? is asked)
    (2500170, "contree", RFID_ONLY),
    # round 6, 6 withdrawn (both sensors): a misread card's tag, read leaving its zone just after its
    # trick was written, was taken for that seat's card of the next trick
    (2600220, "contree", "realistic"),
    # round 6, 1 (camera only): a card nobody had read yet, knocked into the next zone, was taken there
    # for that seat's next card; the tricks after came out of turn
    (2600353, "contree", "realistic,rfid=false"),
    # round 6, 3 (both sensors): a misread card knocked into the next zone: the camera's second report of
    # it and its tag there were taken for that seat's card of the next trick
    (2800105, "classic", "realistic"),
    # round 6, 2: N showed a card (only its leaving the hand was read) and played one only the pile
    # read, whose dealing nobody saw either; the hand came out of step (now: which card did N play?)
    (2800274, "contree", RFID_ONLY),
    # round 6, 1 withdrawn: W showed a card (read leaving the hand and in the zone) and played one only
    # the pile read; the one play of the trick no antenna read going with it is now asked about
    (2600082, "contree", RFID_ONLY),
    # round 6, 1 withdrawn: a trick picked up with every read missed; W's card and the next trick's card
    # of the seat to play, both seen leaving their hands, made W "out of turn" while two seats had
    # their next cards down (now a question)
    (2900113, "classic", RFID_ONLY),
    # round 6, 1 withdrawn (both sensors): W's card, read by the camera alone as a card W played a trick
    # later; that card's tag landing then was taken for a second read of the misread (now: a tag landing
    # where the camera alone read its card tricks before asks which card that was)
    (2700143, "contree", "realistic"),
    # round 6, 1 withdrawn on the way (main passes it): a trick picked up with one read: a card that had
    # lain in its zone for three seconds, seen leaving, was taken as shown and taken back; the next
    # trick's cards were recorded as that trick's
    (2700289, "contree", RFID_ONLY),
    # round 6, a miss the last fix made on the way (a card shown, whose leaving was read late, was
    # taken for the pickup): kept as a check of the 2 s a card must lie in its zone first
    (2900112, "classic", RFID_ONLY),
    # round 6, a miss on the way (main passes it): a tag first read leaving its zone at the pickup (W's
    # real card, a question) was taken for a card put down after the trick's last one, and the trick
    # went without its pile
    (2100185, "contree", RFID_ONLY),
    # round 6, 1 withdrawn on the way (main passes it): a card shown whose only read was its leaving the
    # zone, then the card really played: the first was taken for the card played (now: taken back, since
    # its seat put another card down within 2 s; with none, as in 2500206 above, it is the card played)
    (2100169, "contree", RFID_ONLY),
    # round 6, a miss (camera only): a card E showed and took back, read as the card the camera had
    # misread S's as, was taken for S's recorded card leaving: the trick "picked up" too soon
    (2700253, "classic", "realistic,rfid=false"),
    # round 6, a miss (both sensors): a camera misread made the side that took the trick its winner; the
    # pile's tag corrected the card, and the pickup, now by the wrong side, was never checked again
    (2300079, "classic", "realistic"),
    # round 6, 3 withdrawn on the way: the last card of a trick picked up 1.6 s after it was put down,
    # its other pickup reads missed, was taken as shown and taken back (now: a card that lay 1.3 s
    # there goes with the pickup)
    (2900262, "classic", RFID_ONLY),
    (2900154, "classic", RFID_ONLY),
    # round 6, 3 (both sensors; found tracing the seed-1 benchmark, the last fix of the round): the
    # console named E's real card of trick 1; the plays the referee knows were updated only after the
    # correction was written, so the tricks after it were not put in turn: trick 2 was "out of turn"
    (101026, "contree", "realistic"),
    # round 6, 1 (both sensors; the cause left at the end of the round, fixed after the merge): the console
    # named a trick's four unseen cards in the turn a camera misread gave; a correction then changed
    # trick 3's winner with one of them written, and a partly written trick was not put in turn: the
    # named card was "out of turn" (now: undone, it waits for its turn)
    (3300218, "contree", "realistic"),
    # round 7, the false accusation left on the held-out seed 3 (both sensors): W's ♦10, read by the camera
    # alone as the ♥10 (70 % sure), made W the winner of trick 8; NS, who won it, were accused of a wrong
    # pickup, and the console's correction after the hand was over never rechecked it (now: a wrong pickup
    # whose winner rests on a play read once is to confirm; corrections in a hand just over recheck it)
    (300994, "contree", "realistic"),
    # round 7, a miss and 1 withdrawn (seed 3, both sensors): N's ♥J read by the camera alone as the ♦J;
    # the console named S's real ♦J, and the record held the ♦J twice (now: N's card is asked about and
    # the hand is in doubt); the game's later hands came out of step and a planted out-of-turn was missed
    (300808, "contree", "realistic"),
    # round 7, misses (seed 3, camera only): a confident misread (0.92, 0.96) of a card of the last trick
    # made the wrong seat its winner; the real leader's card looked early and the console said it was not
    # out of turn, so the early card of the wrongly recorded leader was never found (now: before asking
    # whether a card is out of turn, the last trick's plays read once are confirmed)
    (300238, "contree", "realistic,rfid=false"),
    (301438, "contree", "realistic,rfid=false"),
    # round 7, misses on the way (working seeds 31, 33): a hand put in doubt (a card the console named was
    # recorded as another play) whose revoke only the end-of-hand audit finds (the deal was not seen, or
    # not whole): the audit's violation was never put to the console, so it never stood
    (3300147, "classic", "realistic,rfid=false"),
    (3100135, "classic", "realistic"),
    # round 8, the misses on round 7's held-out seed 4. 400513 (both sensors): N's ♣7, shown and taken
    # back, had its arrival read late, after its leaving: taken for a card still there, it was recorded
    # as N's play and the record went a trick out of step (now: a tag read arriving in a zone just after
    # it was read leaving it is that late report). 401022, 401432 (RFID only), 400613 (classic, RFID
    # only): the wrong pickup of a hand's last trick, whose one unseen card was read only in the pile and
    # then named at the console; the pile was forgotten (now: that pile read gives the trick's pile)
    (400513, "contree", "realistic"),
    (401022, "contree", RFID_ONLY),
    (401432, "contree", RFID_ONLY),
    (400613, "classic", RFID_ONLY),
    # round 8, the out-of-turn card missed on seed 3 (RFID only): E's ♥J, its tag read in S's zone, was
    # asked about as S's; the console kept S's ♥K, and the ♥J waited as S's next card. At trick 3 it stood
    # in for S's ♠K (named at the console, so with no time) and hid that E's ♠9 came down first (now: a card
    # recorded or on the table as another seat's is dropped, not kept as this seat's next card)
    (301322, "contree", RFID_ONLY),
    # round 8, a miss on the fresh work seed 46 (RFID only): trick 5's pile read N's ♥10, nobody saw N
    # put it down, and nobody saw who was dealt it; the referee asked whether S's recorded ♣9 was shown and
    # taken back instead of taking the trick as picked up with N's card unseen, the record went a trick out
    # of step and trick 7's wrong pickup was missed (now: a card a pile reads, of a seat still to play for
    # all the antennas know, is asked for as that unseen card)
    (4600337, "contree", RFID_ONLY),
    # round 8, a withdrawal on round 7's work seed 34 (RFID only): W's ♦9, shown and taken back (its return
    # unread), was recorded as W's card of trick 3; W's real ♥7, read leaving the zone with the pickup 3 s
    # after the ♦9 was put down, was taken for trick 4's (the pickup was timed from the last card put down,
    # not from the pile's read); the record went a trick out of step and a wrong pickup was shown, then
    # withdrawn (now: a trick picked up is so from its first pile read at the latest)
    (3400329, "contree", RFID_ONLY),
    # round 8, a withdrawal on round 7's work seed 31 (RFID only): S's ♣7 (a trump), shown and taken back
    # with its return unread, was recorded as S's card of trick 1 (its real ♠10 was never read); the ♣7 made
    # S the winner, and EW, who won the trick, were shown as taking NS's trick until the ♣7 was played again
    # (now: a wrong pickup resting on a card no antenna read going with the trick is to confirm)
    (3100367, "contree", RFID_ONLY),
    # round 9, the miss on round 8's held-out seed 6 (RFID only): hand 2's last trick was picked up with
    # its reads missed, so the record still had the hand in play when the next deal began; that deal's
    # tags arriving in the hands were taken for cards taken back, and its card left in the dealing area
    # (a short deal: W got 7) was not looked at (now: two cards of picked-up tricks arriving in the hands,
    # or a card in the dealing area, end the hand, and the readings meanwhile go to the next deal)
    (601323, "contree", RFID_ONLY),
    # round 9, the withdrawal on work seed 34 (RFID only): N's ♣A and W's ♣K were shown and taken back in
    # trick 2, both read leaving their zones: the trick looked picked up. W's ♣K read back in the hand was
    # asked about, but the pickup stood; N's real ♦10, read leaving with the real pickup 4 s later, was
    # taken for trick 3's, the record went a trick out of step and a wrong pickup was shown, then
    # withdrawn (now: a pickup seen on a take-back's read is still to come, and the next tag leaving a
    # zone is of that trick: N's card at trick 2 is asked)
    (3400386, "contree", RFID_ONLY),
    # round 9, the withdrawal on seed 3 (RFID only; before, this game showed a hand in doubt): E's card of
    # trick 2 and its pickup went unread; N's card, down 3.6 s before E's lead of trick 3, was written out
    # of turn, then withdrawn (now: an early card that would have made its trick whole had the seat it
    # jumped put a card down unseen, and that lay there as a play before that seat's card came, is asked)
    (301028, "contree", RFID_ONLY),
    # round 9, the withdrawal on seed 5 (RFID only): trick 7's pickup reads (a tag leaving a zone 9 s after
    # trick 6 was picked up, a pile read in the other side's pile) "confirmed" two cards the record, a
    # trick out of step, had in trick 6, and a wrong pickup resting on them was shown (now: a read that
    # contradicts the trick the record has its card in is no second read of that play)
    (500544, "contree", RFID_ONLY),
    # round 9, 2 withdrawals on the fresh work seed 55 (classic, RFID only): W's card of trick 4 and the
    # pickup went unread; S, E and N put trick 5's cards down (asked: the console kept their trick-4
    # cards), then W's lead of trick 5 was recorded as W's trick-4 card (now: a card put down after cards
    # of the next trick is of the next trick too, and W's card of trick 4 is asked for)
    (5500207, "classic", RFID_ONLY),
    # ... and the withdrawal that rule made on seed 6 while it took any card waiting as the next trick's:
    # S's ♣J, shown before S's recorded ♥10 and left waiting (asked as out of turn, dismissed), made E's
    # ♥8 of trick 2 the next trick's (now: only a card put down after its seat's recorded one is)
    (601075, "contree", RFID_ONLY),
    # round 9, a miss on the fresh work seed 53 (both sensors): N said "belote" with the ♠Q (trumps), which
    # the camera read as the ♣Q; the word waited for a belote card, and when N's tag corrected the card at
    # the pickup it was lost: the contract counted failed, the game ended a hand early, and its last hand's
    # revoke was never seen (now: a tag that corrects a card into a belote card takes the word waiting)
    (5300605, "contree", "realistic"),
    # round 10, a miss on the fresh work seed 61 (classic, RFID only, harsher faults): N's ♦J, shown and
    # taken back at trick 7, was put down again at trick 8 with only its leaving the zone read (at the
    # game's last pickup); a card once back in its hand was never again taken for a card leaving a zone,
    # so the last trick stayed open, the hand was never scored and E's revoke of trick 1 (found only by
    # the end-of-hand audit: the deal was not seen whole) was missed (now: only a read within 1 s of its
    # coming back is a late report of its going back)
    (6100258, "classic", "realistic,misread=0.1,knocked=0.1,takeback=0.2,camera=false"),
    # round 10, a miss on work seed 62 (contrée, both sensors, harsher faults): E showed the ♥J (the camera
    # saw it land and leave) and put down the ♦7, which the camera misread as the ♦8; the ♦7's tag leaving
    # E's hand was given to the ♥J, the ♦8 recorded as E's card, and the hand went a trick out of step (a
    # planted out-of-turn at trick 6 missed). Now a card seen leaving its zone takes no tag leaving a hand.
    (6200265, "contree", "realistic,misread=0.1,knocked=0.1,takeback=0.2"),
    # round 10, a false must-follow on work seed 62 (classic, both sensors, harsher faults): S's ♣A, read by
    # the camera alone as the ♠A (92 % sure), was recorded; N's ♠A, shown in N's zone (both sensors read it)
    # and taken back, changed nothing, the hand went out of step and N was accused of not following spades
    # with the ♠A (now: a tag landing in another seat's zone asks about a card the camera alone read as it)
    (6200190, "classic", "realistic,misread=0.1,knocked=0.1,takeback=0.2"),
    # round 10, a withdrawal on work seed 62 (classic, RFID only, harsher faults): N's ♠J and S's ♣7, each
    # shown and taken back with only its leaving the zone read (4 s apart, W's card put down in between),
    # looked like the trick's pickup; S's real ♥J then went to trick 2, the record went a trick out of step
    # and a wrong pickup was shown, then withdrawn (now: only cards that left after the last card seen put
    # down make a pickup)
    (6200302, "classic", "realistic,misread=0.1,knocked=0.1,takeback=0.2,camera=false"),
    # round 10, a false out-of-turn on work seed 65 (classic, RFID only, harsher faults): E showed the ♣J and
    # took it back; its leaving the zone was read first, its leaving the hand late, after it. The card, first
    # read leaving, was given a time in turn (a guess), then counted as timed, as if it had lain there since
    # the trick began: taken for E's card, played before S's (now: the late read times it)
    (6500325, "classic", "realistic,misread=0.1,knocked=0.1,takeback=0.2,camera=false"),
    # round 10, a withdrawal on work seed 65 (classic, RFID only, harsher faults): E showed the ♦K (its going
    # back unread), recorded as E's card of trick 4; E's real ♣10, knocked into W's zone and read there, was
    # read leaving E's zone at the pickup, but a card on the table (in W's zone) was taken for one of the
    # trick leaving: the record went a trick out of step (now: a tag leaving a zone where no card on the
    # table holds it is a card no play holds there: which card did E play? is asked)
    (6500282, "classic", "realistic,misread=0.1,knocked=0.1,takeback=0.2,camera=false"),
    # round 10, a miss on work seed 66 (classic, both sensors, harsher faults): E's ♦A of trick 3, read ♣A by
    # the camera alone, was corrected by its tag leaving the zone at the pickup; the trick awaiting its pickup
    # still held the ♣A, so the pile's read of the ♦A was not taken for the trick's, and the trick (N trumped
    # it) went to EW's pile unchecked (now: a correction of a card of that trick is the trick's too)
    (6600294, "classic", "realistic,misread=0.1,knocked=0.1,takeback=0.2"),
    # round 11, the false accusation of blind seed 12 (classic, RFID only): N showed the ♣8 after E's card
    # was put down, but E's card's one read (its tag leaving E's hand) came late, 0.13 s after the ♣8's; N
    # took the ♣8 back and put down the ♦J, both unread, and "N played ♣8 out of turn" was written and then
    # confirmed (now: a card of the player to play timed by one RFID read, less than LATE_EDGE after
    # another's, leaves the order a question)
    (1200367, "classic", "realistic,camera=false"),
    # seed 12, a miss: hand 5, trick 5, N showed the ♥9 and took it back unread, put down the ♥Q; its tag
    # leaving N's zone was asked about and the console named the ♥Q, but the trick awaiting its pickup
    # still held the ♥9, so the pile's read of the ♥Q (EW, S's ♠K winning) was not its pile: the wrong
    # pickup was missed (now: a play the console corrects is corrected in that trick too)
    (1200397, "contree", "realistic,camera=false"),
    # seed 12, a miss: hand 12, N showed the ♥9 at trick 2, its return unread, and put down the ♥Q; the
    # ♥Q's pile read, 0.3 s after trick 2 went, was taken for trick 3 picked up unseen: its four cards
    # asked with no time, and W's ♣K out of turn missed (now: a pile read so soon after a trick went is
    # of that trick's pickup)
    (1200744, "classic", "realistic,camera=false"),
    # work seed 72 (harsher faults), a miss: hand 4, N led trick 1 unread, the other cards waiting for it; the
    # pile's one read, N's ♦K in EW's pile, was taken for the trick picked up unseen without its pile, and
    # EW's wrong pickup was missed (now: that pile is the trick's)
    (7200295, "contree", "realistic,misread=0.1,knocked=0.1,takeback=0.2,camera=false"),
    # work seed 62 (harsher faults), a false accusation: hand 2, trick 8, N's ♣Q, knocked into W's zone, was
    # read there by the camera alone and recorded as W's card; W's ♣K, unread, was named N's by elimination.
    # The pile's reads of the two "confirmed" both plays, though their tags had left N's and W's zones the
    # other way round: EW's wrong pickup was shown (now: a pile's read is no second read of whose a card is
    # when its tag was read in another seat's zone; both plays are asked, and the console names them)
    # seed 19 at ten times the realistic take-backs, a false accusation: hand 1, W showed the ♣9 at trick 7,
    # its return unread, and put down the ♣8 unread; the ♣8's read in NS's pile with trick 7 was kept, and
    # when the ♣8 was named W's trick 8 card by elimination, it gave trick 8 (EW's, W winning) to NS: a
    # wrong pickup (now: a pile read is of the trick on the table when it came, no later one)
    (1900106, "classic", "realistic,takeback=0.3,camera=false"),
    (6200288, "contree", "realistic,misread=0.1,knocked=0.1,takeback=0.2"),
]


@pytest.mark.parametrize("seed,rules,faults", CASES)
def test_no_false_accusation_and_every_traced_violation_found(seed, rules, faults):
    sim, referee = replayed(seed, faults, rules)
    found = [(hand, v.as_dict()) for hand, v in referee.violations()]
    false = [(hand, v["rule"], v["message"]) for hand, v in found
             if not any(p.matches(hand, v) for p in sim.planted)]
    assert false == []
    missed = [p.as_dict() for p in sim.planted if p.traced and not any(p.matches(h, v) for h, v in found)]
    assert missed == []
    assert referee.doubt.withdrawn == []          # nor one shown, then withdrawn


def test_a_hand_whose_record_proves_impossible_asks_before_it_accuses():
    """A hand whose record proved impossible (the console named, for a card on the table, a card
    recorded as another play of the hand) is in doubt: the violations shown in it are put to the
    console, which dismisses one (shown, then withdrawn: counted apart) and confirms another. The
    questions do not hold the record: they ask whether a violation stands, not which card was played.
    (Until round 9 this replayed game 301028, whose out-of-turn was withdrawn so; it is now asked before
    it is written, and is a case above. No game of the work seeds still comes out so, hence the part.)"""
    from referee.doubt import Doubt

    doubt = Doubt()
    early = Violation("out-of-turn", 0, "N played ♥Q out of turn", card=10, trick=2)
    revoke = Violation("must-follow", 1, "E did not follow", card=5, trick=3)
    why = "♣7 was recorded as E's card at trick 2, and the console named it as E's at trick 3"
    asked = [p.conflict for p in doubt.impossible(2, why, [early, revoke]) if isinstance(p, Ask)]
    assert [c.kind for c in asked] == ["in-doubt", "in-doubt"] and not any(c.blocking for c in asked)
    assert why in asked[0].message                       # in doubt, and says why
    assert not doubt.stands(2, early) and not doubt.stands(2, revoke)
    list(doubt.answer(asked[0], "dismiss"))
    flags = [p for p in doubt.answer(asked[1], "confirm") if isinstance(p, Flag)]
    assert doubt.withdrawn == [(2, early)] and not doubt.stands(2, early)
    assert doubt.stands(2, revoke) and flags == []       # shown before: confirmed, not reported twice


def test_a_violation_the_console_confirms_later_is_reported_with_its_own_hand():
    """An in-doubt question can be answered once the table has moved on: the violation the console
    confirms is reported as of the hand it was found in, not the hand being played."""
    from referee.doubt import Doubt

    doubt = Doubt()
    revoke = Violation("must-follow", 1, "E did not follow", card=5, trick=3)
    [ask] = [p for p in doubt.ask(2, revoke, []) if isinstance(p, Ask)]
    [flag] = [p for p in doubt.answer(ask.conflict, "confirm") if isinstance(p, Flag)]
    assert flag.violation == revoke and flag.hand == 2


def test_plays_read_once_follow_their_plays_when_the_tricks_are_put_in_turn():
    """trick_order moves a trick's plays to other events of the record: the play read once and the
    violations waiting on it follow the play, so that a confirmation corrects the right event (round 6;
    before, the waiting violations kept the old event's number; the open questions' ``ref`` follow in
    the table referee, :meth:`TableReferee._put_in_turn`)."""
    from referee.game import Game
    from referee.proposals import Conflict
    from referee.to_confirm import OneRead, ToConfirm

    conflicts = [Conflict("to-confirm", "only one RFID antenna read W's card", hand=1, trick=2, seat=3, ref=12)]
    part = ToConfirm(Game(TableReferee.make_header("contree")), conflicts)
    part.note(12, OneRead(1, 5, 3, 2, "rfid", ("play:W", "in")))
    part.asked[1] = (conflicts[0], 0.0)
    part.rests_on(Violation("must-follow", 3, "W did not follow suit", card=5, trick=2, to_confirm=(12,)))
    part.renumbered({12: 14, 14: 12})
    assert set(part.plays) == {14} and part.plays[14].card == 5
    assert part.waiting[0].to_confirm == (14,)


def test_a_rebelote_said_after_a_card_was_taken_back_goes_with_the_card_put_down():
    """Seed 2400144, camera only, hand 5 (all trumps): E showed ♥K, took it back, put ♦Q down and said
    "rebelote". The word went with the ♥K taken back and was lost with it, so the belote's 20 points
    were not counted and a made contract was scored failed (the game then ended two hands early and
    missed a later violation). Now the card still down takes it, and every hand scores as played."""
    sim, referee = replayed(2400144, "realistic,rfid=false", "contree")
    scored = {r.number: (r.result, r.score) for r in referee.results}
    assert scored == {r.number: (r.result, r.score) for r in sim.truth.results}


def test_only_one_named_card_is_moved_back_to_its_turn():
    """Seed 301226, RFID only: three cards of one trick named without a time came out of turn after a
    correction. Undoing all three (a first version of the partly written trick's fix) left the table's
    cards out of step with the record: hand 8 was scored failed, the game ended early and the next
    call crashed the referee. With more than one such card the console is asked, as before."""
    sim, referee = replayed(301226, RFID_ONLY, "contree")
    assert [(r.number, r.score) for r in referee.results] == [(r.number, r.score) for r in sim.truth.results]
    found = [(hand, v.as_dict()) for hand, v in referee.violations()]
    assert not [v for hand, v in found if not any(p.matches(hand, v) for p in sim.planted)]


def test_a_violation_no_sensor_traced_that_the_console_confirmed_is_not_counted_false():
    """Game 201313 (seed 2's game 1307, contrée, RFID only), hand 7: S's ♦8 out of turn, a card no
    sensor timed. The referee asked about it on a time it inferred, and the console, who saw the
    table, confirmed it: a true violation. The benchmark counted it as a false accusation in round 6;
    it is counted apart now, neither false nor in the recall."""
    from referee.measure import run

    m = run(7, 2, parse_faults(RFID_ONLY), "contree", first_game=1307)     # the game's 7 hands
    assert m.games == 1 and m.false_accusations == 0
    assert m.untraced_found == 1 and m.recall == 1.0


def test_a_game_cut_short_leaves_no_violation_waiting_for_a_second_read():
    """Game 3400195 cut after 8 hands (the last game of a 1,000-hand run, working seed 34): the last
    hand's revoke rested on a tag read once and was found when its last trick was written, at the
    sensors' heartbeat after the game; its question waited 2 s for a second read, and no observation
    came to press it. The simulated sensors now go on reporting for 10 s, as a live table's do."""
    sim, referee = replayed(3400195, RFID_ONLY, "classic", hands=8)
    assert referee.to_confirm() == []
    assert (8, "must-follow", "N") in [(h, v.rule, "NESW"[v.seat]) for h, v in referee.violations()]


def test_a_wrong_pickup_whose_card_a_tag_corrected_is_confirmed_when_the_console_names_that_card():
    """Game 3700366 (working seed 37, both sensors), hand 5: W's ♥8, read by the camera alone as the ♦8,
    made S the winner of trick 4, which EW took: a wrong pickup to confirm. The pile's tag corrected W's
    card to the ♥8 (a play resting on that one read) while the question about the ♦8 waited; the console
    then named the ♥8, the card the play held by then, and nothing was written, so the wrong pickup, a
    real one, stayed to confirm for ever. Replayed as the benchmark referees it (the console answers as
    soon as asked)."""
    from referee.measure import run

    m = run(10, 37, parse_faults("realistic"), "contree", first_game=255)     # game 3700366's 10 hands
    assert m.games == 1 and m.by_kind["wrong-pickup"] == [1, 1]
    assert m.flagged == m.planted and m.to_confirm_left == 0 and m.false_accusations == 0


def test_a_later_card_misread_as_a_corrected_one_is_not_dropped_as_that_card():
    """Game 300845 (seed 3, classic, camera only), hand 4: the camera read W's ♠7 as the ♠8 at trick 7,
    and W's ♠8 as the ♠7 at trick 8, where S played out of turn before W. Whose turn it was rested on
    trick 7's cards, so they were confirmed first; the console named W's ♠7, and W's card lying in its
    zone at trick 8, read as the ♠7, was dropped as "that same card": W's card was then asked for with
    no time, and S's out-of-turn card was missed. Replayed as the benchmark referees it."""
    from referee.measure import run

    m = run(8, 3, parse_faults("realistic,rfid=false"), "classic", first_game=836)   # game 300845
    assert m.games == 1 and m.by_kind["out-of-turn"] == [1, 1] and m.false_accusations == 0


def test_a_camera_read_of_a_card_on_the_table_in_another_zone_keeps_its_time():
    """Game 500527 (seed 5's game 512, contrée, both sensors), hand 7, trick 4: N put the ♠7 down out
    of turn, before E; its tag was not read in the zone and the camera misread it as the ♦7 S had just
    played (0.83). That read took the tag of S's ♦7 leaving S's hand as its own, so it became S's
    card, and N's card was asked for at the pickup with no time: the out-of-turn was missed. A camera
    read of a card already on the table in another zone is a card put down there then (which card, the
    console says): the referee asks whether N played out of turn, and the console confirms it."""
    from referee.measure import run

    m = run(7, 5, parse_faults("realistic"), "contree", first_game=512)     # the game's first 7 hands
    assert m.false_accusations == 0 and m.withdrawn == 0
    assert m.flagged == m.planted == 2


def test_a_belote_said_after_a_card_was_taken_back_goes_with_the_unread_card_down():
    """Game 5600704 (contrée, both sensors), hand 6: S showed the ♠K, took it back, and put down a card
    the camera could not read as it said "belote". The word went with the ♠K taken back and was lost with
    it: NS scored 20 points short. While a card still down is unread, the word goes with it (the console
    names it; a card that makes no belote is then asked about, as any)."""
    sim, referee = replayed(5600704, "realistic", "contree")
    mine = {r.number: r.score for r in referee.results}
    assert all(mine.get(r.number) == r.score for r in sim.truth.results)


def test_a_belote_said_over_a_sure_camera_misread_asks_about_the_card():
    """Game 5800317 (contrée, camera only), hand 6: E said "rebelote" as it put down the ♠Q (spades
    trumps), which the camera read as the ♠J at 0.90, over :data:`CAMERA_SURE`. The word waited for a
    belote card that never came and was lost: EW scored 20 points short. A belote said over a card that
    makes none doubts the read: the console is asked, names the ♠Q, and the hand scores as played."""
    sim, referee = replayed(5800317, "realistic,rfid=false", "contree")
    asked = [c for c in referee.conflicts if c.kind == "camera-only" and "said belote" in c.message]
    assert [(c.hand, c.seat, c.proposal) for c in asked] == [(6, 1, parse_card("Js"))]
    mine = {r.number: r.score for r in referee.results}
    assert all(mine.get(r.number) == r.score for r in sim.truth.results)


def test_the_hands_last_card_no_sensor_read_is_the_one_card_not_played():
    """Round 11 (fewer questions): at the hand's last trick, a card no sensor read is the one card of the deck
    no play holds nor another card of the trick, once the cards after it are down: named by elimination, not
    asked. It rests on the record as on one read (``sources: ["deduced"]``), so a violation resting on it
    waits to confirm. Game 300002 (seed 3, classic, RFID only), 10 hands. (Not on a table without RFID: a
    confident camera misread earlier in the hand may have named that very card.)"""
    sim, referee = replayed(300002, "realistic,camera=false", "classic", hands=10)
    deduced = [(e["seat"], e["card"]) for e in referee.record if e["type"] == "play" and e.get("sources") == ["deduced"]]
    last = {("NESW"[s], card_name(c)) for (h, trick, s), c in sim.plays.items() if trick == 8}
    assert deduced == [("W", "8d")] and set(deduced) <= last
    assert not [c for c in referee.conflicts if c.kind == "card-unknown" and c.trick == 8]
    assert [(r.number, r.score) for r in referee.results] == [(r.number, r.score) for r in sim.truth.results]


def test_on_a_camera_only_table_the_last_card_nobody_saw_put_down_is_asked_at_the_pickup():
    """Round 12: the hand's last card is named by elimination on the same terms at the pickup as in turn,
    so only on a table with RFID. Game 300 (contrée, camera only, one hand) with the camera's reads of
    W's ♦K at trick 8 taken out: nobody saw W put a card down, and at the pickup W's card is asked, as a
    card the camera could not read is (on main it was named by elimination there: a confident camera
    misread earlier in the hand may have named that very card, game 1000126)."""
    import dataclasses

    from referee.observations import CardSeen
    from referee.simulate import simulate

    from replay import refereed

    sim = simulate(1, 300, parse_faults("realistic,rfid=false"), "contree")
    card = sim.plays[(1, 8, 3)]
    assert card == parse_card("Kd")
    unseen = [o for o in sim.observations if not (isinstance(o, CardSeen) and o.zone == "play:W" and o.card == card)]
    assert len(unseen) < len(sim.observations)
    referee = refereed(dataclasses.replace(sim, observations=unseen))
    assert not [e for e in referee.record if e["type"] == "play" and e.get("sources") == ["deduced"]]
    asked = [(c.trick, c.seat) for c in referee.conflicts if c.kind == "card-unknown" and c.trick == 8]
    assert asked == [(8, 3)]
    assert [r.score for r in referee.results] == [r.score for r in sim.truth.results]


@pytest.mark.parametrize("game, hands, rules, what", [
    # hand 7, trick 7: S's ♣Q alone read leaving; N's ♦A never read. N's ♠K of trick 8, read leaving at
    # trick 8's pickup, was taken for N's trick-7 card and the ♦A named for trick 8: a failed contract
    # scored made
    (1200648, 13, "classic", "wrong hand"),
    # hand 9, trick 3: S's ♠8 alone read leaving; the next trick's cards taken for its own (45 questions,
    # a violation left to confirm, 4 card points short)
    (800698, 10, "classic", "left to confirm"),
    # hand 1: trick 4's cards and trick 5's mixed (W's ♥J recorded at both); trick 4's wrong pickup was
    # shown, then withdrawn at the console
    (1500967, 12, "classic", "withdrawn"),
])
def test_a_card_put_down_by_a_seat_that_played_the_trick_after_a_card_of_it_left_is_the_next_tricks(
        game, hands, rules, what):
    """Round 13, the pickup read by one card leaving its zone (RFID only): a card of the trick that had lain
    there :data:`~referee.play_pickup.STAYED` left its zone, the others' pickup reads missed, and the player
    still to play had no card seen down. A card then put down by a seat whose card of the trick is recorded
    is not a second card of that trick but the next trick's: the trick went, and the card of the player to
    play, nobody saw, is asked for. Before, that seat's card waited and the next trick's cards were taken for
    the old trick's. Each game (its seed: a benchmark seed's game, ``seed * 100003 + game``) replayed as the
    benchmark referees it (``what``: how it failed on main)."""
    from referee.measure import run

    seed = game // 100003
    m = run(hands, seed, parse_faults(RFID_ONLY), rules, first_game=game - seed * 100003)
    assert m.games == 1 and m.wrong_hands == []
    assert m.withdrawn == 0 and m.to_confirm_left == 0 and m.false_accusations == 0
    assert m.flagged == m.planted


def test_the_games_last_trick_picked_up_with_one_read_is_scored():
    """Round 13, game 900422 (seed 9, contrée, RFID only), the game's last hand: at its last trick S's ♣Q
    alone was read leaving its zone, E's ♠K never read. With no next deal to end the hand, it stayed open
    and was never scored. A card of the last trick that had lain there :data:`~referee.play_pickup.STAYED`
    leaving its zone, then nothing put down for :data:`~referee.play_order.LAST_WAIT`, is the pickup: E's
    card is the one card of the deck not played, and the hand is scored as played."""
    sim, referee = replayed(900422, RFID_ONLY, "contree", hands=60)
    assert len(sim.truth.results) == 7
    assert [(r.number, r.score) for r in referee.results] == [(r.number, r.score) for r in sim.truth.results]


def test_the_last_card_of_a_hand_leaving_its_zone_at_once_is_its_pickup():
    """Round 17, game 2000383 (seed 20, blind at round 16's code: its one hand of 60,000 not recorded
    exactly; contrée, RFID only), the game's last hand: S put down the ♦9, S's last card, as the last
    card of trick 8; it left its zone a second later (under :data:`~referee.play_pickup.STAYED`), every
    other read of the pickup missed. It was taken as shown and taken back, and the hand, waiting for S's
    card, was never scored. A player's last card cannot be taken back for another: its leaving is the
    pickup, and the hand is scored as played."""
    from referee.measure import run

    m = run(8, 20, parse_faults(RFID_ONLY), "contree", first_game=323)
    assert m.games == 1 and m.hands == 8 and m.wrong_hands == []
    assert m.false_accusations == 0 and m.to_confirm_left == 0 and m.flagged == m.planted


def test_a_wrong_pickup_the_console_dismissed_in_a_hand_in_doubt_is_not_left_to_confirm():
    """Round 18, game 2101209 (seed 21, blind at round 17's code; contrée, RFID only), hand 5: NS were
    shown taking trick 2, which W won on the cards recorded. A card the console named then put the hand
    in doubt, and the console dismissed that wrong pickup (withdrawn). Naming E's card of trick 2 found
    it again on the corrected record, resting on that play: it stayed "to confirm" to the game's end, on
    the console's screen and the scoresheet, a play nobody would be asked about any more (the console
    had named it)."""
    from referee.scoresheet import Scoresheet

    sim, referee = replayed(2101209, RFID_ONLY, "contree")
    assert [(h, v.rule, v.trick) for h, v in referee.doubt.withdrawn] == [(5, "wrong-pickup", 2)]
    assert referee.to_confirm() == []
    assert all(row.to_confirm == [] for row in Scoresheet.from_referee(referee).rows)
    assert [(r.number, r.score) for r in referee.results] == [(r.number, r.score) for r in sim.truth.results]


def test_a_card_taken_as_taken_back_whose_seat_put_nothing_down_was_picked_up():
    """Round 13, game 1200188 (seed 12, contrée, RFID only), hand 1, trick 1: N's ♠K, the trick's last card,
    was read leaving its zone 1.28 s after its one (late) read leaving N's hand, under
    :data:`~referee.play_pickup.STAYED`, the trick's other pickup reads missed: taken as shown and taken
    back. N put nothing down after it, and E, whose card of the trick was down before, put down another: the
    next trick's. The ♠K was picked up with its trick; W's card, nobody saw, is asked for at once. Before,
    the record went a trick out of step (34 questions in the game, 13 now; a wrong pickup left to confirm,
    the hand scored wrong)."""
    sim, referee = replayed(1200188, RFID_ONLY, "contree")
    assert [(r.number, r.score) for r in referee.results] == [(r.number, r.score) for r in sim.truth.results]
    assert referee.to_confirm() == []
    asked = [(c.kind, c.trick, "NESW"[c.seat]) for c in referee.conflicts if c.hand == 1]
    assert asked[0] == ("card-unknown", 1, "W")


def test_a_rebelote_said_with_a_card_nobody_read_does_not_go_with_the_seats_card_of_the_last_trick():
    """Round 13, game 7200303 (contrée, RFID only, harsher faults), hand 2 (all trumps): W said "rebelote" as
    it put down the ♦K at trick 3, which no antenna read. The word went with W's trick-2 card, the ♠K a
    pile's tag had just named in place of the ♣Q recorded: a card with no time counted as just put down.
    A belote-not-held was shown and EW scored 20 points short. Now the word waits for W's card of trick 3
    (named at the console) and the hand scores as played."""
    sim, referee = replayed(7200303, "realistic,misread=0.1,knocked=0.1,takeback=0.2,camera=false", "contree")
    assert [(r.number, r.score) for r in referee.results] == [(r.number, r.score) for r in sim.truth.results]
    assert not [v for _, v in referee.violations() if v.rule == "belote-not-held"]


def test_a_belote_said_with_a_card_taken_as_taken_back_goes_with_it_when_the_console_names_it_played():
    """Round 14, game 1700727 (seed 17, blind at round 13's code: its one hand of 60,000 not recorded
    exactly; contrée, RFID only), hand 3, spades trumps: E put down the ♠K with "belote" at trick 5; its
    leaving the zone (the pickup's other reads missed) was taken for a take-back, and the ♠Q E put down at
    trick 6 with "rebelote" was recorded as E's trick-5 card. The console named the ♠K for trick 5 and the
    ♠Q for trick 6, but the ♠K kept the ♠Q's word and the ♠Q went without one: no belote, EW 20 points
    short. Now the card named takes the word said with it when it was put down, and the card recorded its
    own word when its play is written."""
    sim, referee = replayed(1700727, RFID_ONLY, "contree")
    assert [(r.number, r.score) for r in referee.results] == [(r.number, r.score) for r in sim.truth.results]
    now = [referee.game.current(n) for n in range(1, len(referee.game.events) + 1)]
    said = {(e["card"], e.get("say")) for e in now
            if e.get("type") == "play" and e.get("seat") == "E" and e.get("card") in ("Ks", "Qs")}
    assert {("Ks", "belote"), ("Qs", "rebelote")} <= said
