"""A violation that rests on one camera read, on the real console in headless Chromium: shown
"to confirm" with the camera's thumbnail, not among the violations, until the referee confirms
the card (or dismisses it).

The game is a simulated RFID table's whose violating card the RFID did not read (only the
camera did), stored in the table's event store; ``belote-table serve`` resumes it, as it
resumes any game after a restart.
"""

from __future__ import annotations

import dataclasses
import urllib.request

import cv2
import numpy as np
import pytest
from playwright.sync_api import expect

from e2e_server import signed_in_console, start_server
from referee.cards import card_name
from referee.observations import CardGone, CardSeen, ConsoleAction, ZoneCleared
from referee.sensor_faults import Faults
from referee.simulate import simulate
from referee.store import StoredReferee

PERFECT = Faults(misread=0, unreadable=0, rfid_miss=0, rfid_late=0, duplicate=0, knocked=0, takeback=0,
                 violations=1.0)


def _camera_only_revoke(instance):
    """Store a game whose first planted revoke only the camera read; its thumbnail beside it."""
    for seed in range(200):
        sim = simulate(1, seed=seed, faults=PERFECT, rules="contree")
        planted = next((p for p in sim.planted if p.rule.startswith("must-")), None)
        if planted is None:
            continue
        zone, hand = f"play:{'NESW'[planted.seat]}", f"hand:{'NESW'[planted.seat]}"
        seen = next(i for i, o in enumerate(sim.observations) if isinstance(o, CardSeen)
                    and o.source == "camera" and o.zone == zone and o.card == planted.card)
        cleared = next(i for i, o in enumerate(sim.observations) if i > seen and isinstance(o, ZoneCleared))
        later = [o for o in sim.observations[seen + 1:cleared] if isinstance(o, CardSeen) and o.zone != zone]
        if later:                                   # a card after it in its trick: it is recorded at once
            break
    else:
        raise AssertionError("no simulated game with a revoke before its trick's last card")
    stream = []
    console_t = 0.0
    for i, obs in enumerate(sim.observations[:cleared]):
        if obs.source == "rfid" and isinstance(obs, (CardSeen, CardGone)) and obs.card == planted.card \
                and obs.zone in (zone, hand):
            continue                                # the RFID missed the card: the camera alone read it
        if i == seen:
            obs = dataclasses.replace(obs, evidence={**obs.evidence, "thumbnail": "f000077-revoke.png"})
        if isinstance(obs, ConsoleAction):          # the restarted table's clock starts at 0
            console_t += 0.01
            obs = dataclasses.replace(obs, t=console_t)
        stream.append(obs)
    (instance / "games").mkdir(parents=True)
    referee = StoredReferee(instance / "games" / "t1-1.sqlite", rules="contree",
                            seats={"N": "Ana", "E": "Bo", "S": "Cy", "W": "Di"})
    for obs in stream:
        referee.submit(obs)
    assert referee.to_confirm() and not referee.violations()
    referee.close()
    (instance / "thumbnails").mkdir()
    face = np.full((300, 200, 3), 245, np.uint8)
    cv2.putText(face, card_name(planted.card), (30, 170), cv2.FONT_HERSHEY_SIMPLEX, 3, (0, 0, 200), 6)
    cv2.imwrite(str(instance / "thumbnails" / "f000077-revoke.png"), face)
    return planted


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    instance = tmp_path_factory.mktemp("to-confirm")
    planted = _camera_only_revoke(instance)
    server = start_server(["serve", "--seats", "Ana,Bo,Cy,Di", "--rules", "contree"], instance)
    yield server, planted
    server.stop()


def test_a_violation_on_one_camera_read_is_to_confirm_until_the_referee_confirms(browser, game):
    server, planted = game
    context, page, errors = signed_in_console(browser, server)
    seat = "NESW"[planted.seat]
    doubt = page.locator("#to-confirm li.doubt")
    expect(doubt).to_have_count(1)
    expect(doubt).to_contain_text(f"only the camera read {seat}'s card at trick {planted.trick}")
    expect(doubt).to_contain_text("did not")                  # the violation waiting on it, in words
    expect(page.locator("#violations li.violation")).to_have_count(0)    # not a violation yet
    # The camera's picture of the card, served to the signed-in referee.
    thumb = doubt.locator("img.thumb")
    expect(thumb).to_be_visible()
    assert page.evaluate("(img) => img.naturalWidth", thumb.element_handle()) == 200
    expect(doubt.locator("button.dismiss")).to_be_visible()
    # The referee looks at the card and confirms it: now it is a violation, of the planted rule.
    doubt.locator("button.confirm").click()
    expect(page.locator("#to-confirm li.doubt")).to_have_count(0)
    violation = page.locator("#violations li.violation")
    expect(violation).to_have_count(1)
    assert violation.get_attribute("data-rule") == planted.rule
    page.click("summary:has-text('Events')")
    expect(page.locator("#log li", has_text="confirmed")).to_have_count(1)
    assert not errors
    context.close()


def test_the_thumbnail_is_the_referees_only(game):
    server, _ = game
    with pytest.raises(urllib.error.HTTPError) as exc:
        urllib.request.urlopen(f"{server.base}/api/tables/t1/thumbnails/f000077-revoke.png", timeout=10)
    assert exc.value.code in (401, 403)
