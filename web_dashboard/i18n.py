"""French and English words of the dashboard, one table for the server's
templates and the pages' scripts (``window.I18N``), so both say the same.

French displays use the French court indices R, D, V (roi, dame, valet): the
pages' ``cardLabel`` (``static/feed.js``) does it; the card *text* on the wire
stays the DESIGN form (``Jh``) whatever the language.
"""

from __future__ import annotations

LANGUAGES = ("fr", "en")

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "app": "Belote table", "console": "Referee console", "table_screen": "Table", "overlay": "Overlay",
        "scoresheet": "Scoresheet", "club": "Club", "standings": "Standings", "sign_in": "Sign in",
        "sign_out": "Sign out", "password": "Password", "token": "Table token",
        "bad_credentials": "Wrong password or token: try again, or ask the organiser for the table's token.",
        "contract": "Contract", "no_contract": "No contract yet", "auction": "Auction", "trick": "Trick",
        "tricks": "Tricks", "score": "Score", "total": "Total", "hand": "Hand", "dealer": "Dealer",
        "to_play": "To play", "violations": "Violations", "no_violations": "No violation",
        "conflicts": "Sensor conflicts", "no_conflicts": "No conflict", "confirm": "Confirm",
        "dismiss": "Dismiss", "undo": "Undo", "correct": "Correct a card", "penalty": "Penalty",
        "call": "Call", "pass": "Pass", "counter": "Counter", "recounter": "Re-counter", "capot": "Capot",
        "declare": "Declare", "belote": "Belote", "play": "Play a card",
        "card_points": "Card points", "seat": "Seat", "team": "Team", "points": "Points",
        "reason": "Reason", "card": "Card", "event": "Event", "delayed": "delayed {n} s",
        "made": "made", "failed": "failed", "litige": "litige", "all-pass": "all pass",
        "waiting": "Waiting for the game", "game_over": "Game over", "winner": "Winner",
        "download_csv": "CSV", "download_pdf": "PDF", "print": "Print", "archive": "Finished games",
        "replay": "Replay", "live": "live", "tokens": "Overlay tokens", "new_token": "New token",
        "revoke": "Revoke", "feed": "Feed", "sensors": "Sensors", "keys": "Keys", "hands": "Hands",
        "to_confirm": "To confirm", "no_to_confirm": "Nothing to confirm",
        "to_confirm_hint": "Read once by one sensor: not a violation until a second read or you confirm the card.",
        "waiting_for_sensor": "waiting for a second read", "right_card": "Right card…",
        "status_auction": "Auction", "status_play": "Play", "status_hand-over": "Hand over",
        "status_game-over": "Game over", "status_waiting": "Waiting",
        "rule_must-follow": "did not follow suit", "rule_must-trump": "did not trump",
        "rule_must-overtrump": "did not overtrump", "rule_must-undertrump": "did not undertrump",
        "rule_must-beat": "did not play higher", "rule_belote-king-first": "played the queen before the king",
        "rule_not-held": "played a card not in hand", "rule_already-played": "card already played",
        "rule_bid-too-low": "bid too low", "rule_bid-not-higher": "bid not higher",
        "rule_bid-step": "bid not a valid step", "rule_bid-over-max": "bid over the maximum",
        "rule_contract-not-allowed": "contract not allowed", "rule_counter-own-side": "countered own side",
        "rule_counter-nothing": "countered nothing", "rule_recounter-not-countered": "re-countered without counter",
        "rule_bid-after-counter": "bid after a counter", "rule_bid-after-capot": "bid after capot",
        "rule_out-of-turn": "out of turn", "rule_auction-over": "call after the auction",
        "rule_misdeal": "misdeal", "rule_wrong-pickup": "wrong pick-up", "rule_wrong-dealer": "wrong dealer",
        "rule_belote-not-held": "said belote without king and queen of trumps",
        "rule_declaration-invalid": "declaration not valid", "rule_declaration-late": "declaration too late",
        "rule_declaration-not-allowed": "declarations not played here",
        "rule_declaration-not-held": "declared cards not held", "rule_arret-not-allowed": "stop (l'Arrêt) not allowed",
        "seat_N": "North", "seat_E": "East", "seat_S": "South", "seat_W": "West",
        "team_NS": "N–S", "team_EW": "E–W",
        "connection_lost": "Connection lost: reconnecting…", "preview": "Preview", "new_game": "New game",
        "resolve": "Name the card", "wins": "Games won", "turned": "Turned",
        "tally": "End of hand", "tally_other": "other side", "none": "none", "tally_send": "Score the hand",
        "tally_hint": "Card points with the dix de der, as counted at the table. Keys:",
    },
    "fr": {
        "app": "Table de belote", "console": "Console de l'arbitre", "table_screen": "Table", "overlay": "Incrustation",
        "scoresheet": "Feuille de marque", "club": "Club", "standings": "Classement", "sign_in": "Se connecter",
        "sign_out": "Se déconnecter", "password": "Mot de passe", "token": "Jeton de table",
        "bad_credentials": "Mot de passe ou jeton incorrect : réessayez, ou demandez le jeton de la table à l'organisateur.",
        "contract": "Contrat", "no_contract": "Pas encore de contrat", "auction": "Enchères", "trick": "Pli",
        "tricks": "Plis", "score": "Score", "total": "Total", "hand": "Donne", "dealer": "Donneur",
        "to_play": "À jouer", "violations": "Infractions", "no_violations": "Aucune infraction",
        "conflicts": "Conflits des capteurs", "no_conflicts": "Aucun conflit", "confirm": "Confirmer",
        "dismiss": "Écarter", "undo": "Annuler", "correct": "Corriger une carte", "penalty": "Pénalité",
        "call": "Annonce", "pass": "Passe", "counter": "Contre", "recounter": "Surcontre", "capot": "Capot",
        "declare": "Annoncer", "belote": "Belote", "play": "Jouer une carte",
        "card_points": "Points des cartes", "seat": "Place", "team": "Équipe",
        "points": "Points", "reason": "Motif", "card": "Carte", "event": "Événement", "delayed": "différé {n} s",
        "made": "réussi", "failed": "chuté", "litige": "litige", "all-pass": "tout le monde passe",
        "waiting": "En attente de la partie", "game_over": "Partie terminée", "winner": "Vainqueur",
        "download_csv": "CSV", "download_pdf": "PDF", "print": "Imprimer", "archive": "Parties terminées",
        "replay": "Rejouer", "live": "en direct", "tokens": "Jetons d'incrustation", "new_token": "Nouveau jeton",
        "revoke": "Révoquer", "feed": "Flux", "sensors": "Capteurs", "keys": "Touches", "hands": "Mains",
        "to_confirm": "À confirmer", "no_to_confirm": "Rien à confirmer",
        "to_confirm_hint": "Lu une seule fois par un seul capteur : pas une infraction avant une seconde lecture ou votre confirmation de la carte.",
        "waiting_for_sensor": "en attente d'une seconde lecture", "right_card": "Bonne carte…",
        "status_auction": "Enchères", "status_play": "Jeu", "status_hand-over": "Donne finie",
        "status_game-over": "Partie terminée", "status_waiting": "En attente",
        "rule_must-follow": "n'a pas fourni", "rule_must-trump": "n'a pas coupé",
        "rule_must-overtrump": "n'a pas surcoupé", "rule_must-undertrump": "n'a pas sous-coupé",
        "rule_must-beat": "n'a pas monté", "rule_belote-king-first": "a joué la dame avant le roi",
        "rule_not-held": "a joué une carte qu'il n'avait pas", "rule_already-played": "carte déjà jouée",
        "rule_bid-too-low": "enchère trop basse", "rule_bid-not-higher": "enchère pas plus haute",
        "rule_bid-step": "palier d'enchère invalide", "rule_bid-over-max": "enchère au-delà du maximum",
        "rule_contract-not-allowed": "contrat non autorisé", "rule_counter-own-side": "a contré son camp",
        "rule_counter-nothing": "contre sans enchère", "rule_recounter-not-countered": "surcontre sans contre",
        "rule_bid-after-counter": "enchère après un contre", "rule_bid-after-capot": "enchère après capot",
        "rule_out-of-turn": "hors de son tour", "rule_auction-over": "annonce après les enchères",
        "rule_misdeal": "maldonne", "rule_wrong-pickup": "mauvais ramassage", "rule_wrong-dealer": "mauvais donneur",
        "rule_belote-not-held": "belote annoncée sans roi et dame d'atout",
        "rule_declaration-invalid": "annonce invalide", "rule_declaration-late": "annonce trop tardive",
        "rule_declaration-not-allowed": "annonces non jouées ici",
        "rule_declaration-not-held": "cartes annoncées non détenues", "rule_arret-not-allowed": "Arrêt non autorisé",
        "seat_N": "Nord", "seat_E": "Est", "seat_S": "Sud", "seat_W": "Ouest",
        "team_NS": "N–S", "team_EW": "E–O",
        "connection_lost": "Connexion perdue : reconnexion…", "preview": "Aperçu", "new_game": "Nouvelle partie",
        "resolve": "Nommer la carte", "wins": "Parties gagnées", "turned": "Retournée",
        "tally": "Fin de la donne", "tally_other": "l'autre camp", "none": "aucune", "tally_send": "Marquer la donne",
        "tally_hint": "Points des cartes avec le dix de der, comptés à la table. Touches :",
        # A violation's sentence from its rule, seat, card and params (``violationText``,
        # static/feed.js): the first of ``why_<rule>_<reason>`` (when one rule has several
        # reasons), ``why_<rule>_partner`` (when the partner was
        # winning the trick), ``why_<rule>``, ``why_<rule>_play`` whose words are all
        # known. English has none: the referee's own ``message`` is English.
        "suit_s": "pique", "suit_h": "cœur", "suit_d": "carreau", "suit_c": "trèfle",
        "why_must-follow": "{seat} avait {held} mais n'a pas fourni : {led} demandé",
        "why_must-trump": "{seat} avait {held} mais n'a pas coupé : son partenaire n'était pas maître",
        "why_must-overtrump": "{seat} avait {held} mais n'a pas surcoupé : un adversaire avait coupé du {win}",
        "why_must-overtrump_partner": "{seat} a sous-coupé le {win} de son partenaire en ayant {held} : "
                                      "sur la coupe du partenaire, on surcoupe ou on se défausse",
        "why_must-undertrump": "{seat} avait {held} mais n'a pas sous-coupé : un adversaire avait coupé du {win}",
        "why_must-undertrump_partner": "{seat} avait {held} mais n'a pas sous-coupé : ces règles l'imposent "
                                       "même sur le {win} de son partenaire",
        "why_must-beat": "{seat} a joué {card} mais avait {held} : il fallait monter sur le {win}",
        "why_must-beat_partner": "{seat} a joué {card} mais avait {held} : il fallait monter, même sur le "
                                 "{win} de son partenaire",
        "why_not-held": "{seat} a joué {card} sans l'avoir reçue",
        "why_already-played": "{seat} a joué {card}, déjà jouée dans cette donne",
        "why_auction-over": "{seat} a annoncé {call} : les enchères sont finies, jouez la première carte",
        "why_out-of-turn": "{seat} a annoncé {call} hors de son tour : c'est à {turn} de parler",
        "why_out-of-turn_play": "{seat} a joué {card} hors de son tour : c'est à {turn} de jouer (la carte revient "
                                "dans la main)",
        "why_wrong-pickup": "le pli {trick} est allé dans le tas {pile}, mais {winner} l'avait gagné",
        "why_wrong-dealer": "{seat} a donné la donne {hand}, mais c'était à {turn} de donner",
        "why_bid-too-low": "{seat} a annoncé {call} : une enchère vaut au moins {min}",
        "why_bid-step": "{seat} a annoncé {call} : les enchères vont de {step} en {step} à partir de {min}",
        "why_bid-over-max": "{seat} a annoncé {call} : pas d'enchère au-delà de {max}",
        "why_bid-not-higher": "{seat} a annoncé {call} : ce n'est pas plus que la dernière enchère, {last}",
        "why_bid-after-counter": "{seat} a annoncé {call} : le contrat est contré, seuls passe ou surcontre restent",
        "why_bid-after-capot": "{seat} a annoncé {call} : rien ne se dit au-dessus d'un capot, passez ou contrez",
        "why_recounter-not-countered": "{seat} a annoncé {call} : on ne surcontre qu'un contrat contré",
        "why_contract-not-allowed_contree": "{seat} a annoncé {call} : enchères de contrée, annoncez (p. ex. 80h), "
                                            "contrez ou passez",
        "why_contract-not-allowed_mode": "{seat} a annoncé {call} : ce contrat n'est pas joué avec ces règles",
        "why_contract-not-allowed_capot": "{seat} a annoncé {call} : le capot ne s'annonce pas avec ces règles",
        "why_contract-not-allowed_no-counter": "{seat} a annoncé {call} : le contre n'est pas joué avec ces règles",
        "why_contract-not-allowed_classic": "{seat} a annoncé {call} : belote classique, prenez, nommez une couleur "
                                            "au second tour, ou passez",
        "why_contract-not-allowed_first-round": "{seat} a annoncé {call} : au premier tour, seule la couleur retournée, "
                                                "{turned}, se prend",
        "why_contract-not-allowed_second-round": "{seat} a annoncé {call} : au second tour, nommez la couleur d'atout",
        "why_contract-not-allowed_second-round-turned": "{seat} a annoncé {call} : au second tour, nommez une autre "
                                                        "couleur que la retournée, {turned}",
        "why_belote-not-held_rules": "{seat} a dit {say} avec {card} : la belote n'est pas jouée avec ces règles",
        "why_belote-not-held_no-trump": "{seat} a dit {say} avec {card} : pas de belote sans atout",
        "why_belote-not-held_pair": "{seat} a dit {say} avec {card} : la belote, c'est le roi et la dame d'atout",
        "why_belote-not-held_dealt": "{seat} a dit {say} avec {card} sans avoir le roi et la dame d'atout",
        "why_belote-not-held_played": "{seat} a dit {say} avec {card} mais n'a pas joué l'autre carte de la "
                                      "belote (les cartes jouées le montrent)",
        "why_belote-king-first_said": "{seat} a joué la dame {card} avant le roi : avec ces règles, le roi vient "
                                      "d'abord pour la belote",
        "why_declaration-not-allowed_rules": "{seat} a fait une annonce : les annonces ne sont pas jouées avec ces "
                                             "règles",
        "why_declaration-late_late": "{seat} a fait une annonce : on annonce pendant le premier pli",
        "why_declaration-invalid_shape": "{seat} a fait une annonce : ces cartes ne forment pas une annonce",
        "why_declaration-invalid_twice": "{seat} a fait une annonce : une carte ne compte que dans une annonce",
        "why_declaration-not-held_dealt": "{seat} a annoncé des cartes qu'il n'a pas reçues",
        "why_declaration-not-held_played": "{seat} a annoncé des cartes qu'il n'a pas jouées",
        "why_arret-not-allowed_rules": "{seat} a arrêté la partie : l'Arrêt n'est pas joué avec ces règles",
        "why_arret-not-allowed_won": "{seat} a arrêté la partie : un camp ne s'arrête que juste après avoir gagné "
                                     "un pli",
        "why_misdeal_deal": "maldonne de {seat} : la donne n'est pas régulière ; le même donneur redonne",
        "why_misdeal_confirmed": "maldonne de {seat}, confirmée par l'arbitre ; le même donneur redonne",
        "why_misdeal_redeal": "maldonne de {seat} : l'arbitre a demandé une nouvelle donne ; le même donneur redonne",
        "why_counter-nothing_no-bid": "{seat} a annoncé {call} : il n'y a pas encore d'enchère à contrer",
        "why_counter-nothing_countered": "{seat} a annoncé {call} : le contrat est déjà contré",
        "why_counter-own-side_counter": "{seat} a annoncé {call} : seul un adversaire du dernier enchérisseur contre",
        "why_counter-own-side_recounter": "{seat} a annoncé {call} : seul le camp de l'enchère surcontre",
    },
}


#: The overlay's, its desk's and the analysis page's words (kept apart: one place to find them).
_OVERLAY_STRINGS = {
    "en": {
        "action_safe": "action safe", "title_safe": "title safe", "score_progress": "Score, hand by hand",
        "par": "Par", "dealer_chip": "D", "dealer_is": "Dealer: {name}", "last_trick": "Last trick", "to_target": "to {n}",
        "chance_label": "{team} make {contract}", "costly": "costliest: {seat}", "no_loss": "every card best so far",
        "hand_not_read": "hand not read yet", "no_trick_yet": "no trick yet",
        "overlay_desk": "Overlay desk", "look": "Look", "colour_accent": "Accent", "colour_panel": "Boxes",
        "colour_text": "Text", "save": "Save", "logo": "Logo", "photos": "Players' photos", "remove": "Remove",
        "show_last_trick": "Show the last trick", "layouts": "Layouts (preview)", "picture_hint":
        "PNG, JPEG or WebP, 60 KiB at most.", "cues": "Cues",
        "analysis": "Analysis", "analysis_intro": "Each card against double-dummy par: what it cost its side, "
        "with all hands known and everyone playing best after it (?! 1–9 points, ? 10–29, ?? 30 or more).",
        "losses": "Lost against par", "turning_card": "Turning card", "marked_cards": "Costly cards",
        "analysis_none": "No hand with its four hands known: nothing to analyse.", "analysing":
        "Being analysed: this page fills in by itself.", "fate_made->failed": "the contract was going to be made: "
        "now it fails", "fate_failed->made": "the contract was going down: now it is made",
    },
    "fr": {
        "action_safe": "zone d'action", "title_safe": "zone de titre", "score_progress": "Score, donne par donne",
        "par": "Par", "dealer_chip": "D", "dealer_is": "Donneur : {name}", "last_trick": "Dernier pli", "to_target": "en {n}",
        "chance_label": "{team} font {contract}", "costly": "la plus chère : {seat}", "no_loss": "jusqu'ici, que des meilleures cartes",
        "hand_not_read": "main pas encore lue", "no_trick_yet": "pas encore de pli",
        "overlay_desk": "Régie de l'incrustation", "look": "Apparence", "colour_accent": "Accent", "colour_panel": "Cadres",
        "colour_text": "Texte", "save": "Enregistrer", "logo": "Logo", "photos": "Photos des joueurs", "remove": "Retirer",
        "show_last_trick": "Montrer le dernier pli", "layouts": "Mises en page (aperçu)", "picture_hint":
        "PNG, JPEG ou WebP, 60 Kio au plus.", "cues": "Commandes",
        "analysis": "Analyse", "analysis_intro": "Chaque carte face au par à cartes ouvertes : ce qu'elle a coûté à son camp, "
        "toutes les mains connues et chacun jouant au mieux ensuite (?! 1 à 9 points, ? 10 à 29, ?? 30 ou plus).",
        "losses": "Perdu face au par", "turning_card": "Carte décisive", "marked_cards": "Cartes coûteuses",
        "analysis_none": "Aucune donne dont les quatre mains sont connues : rien à analyser.", "analysing":
        "Analyse en cours : cette page se complète d'elle-même.", "fate_made->failed": "le contrat allait passer : "
        "il chute", "fate_failed->made": "le contrat allait chuter : il passe",
    },
}
for _lang, _words in _OVERLAY_STRINGS.items():
    STRINGS[_lang].update(_words)

_SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def card_label(card: str, lang: str) -> str:
    """A card as the pages show it (``feed.js``'s ``cardLabel``): ``10♥``, and in French V, D, R."""
    rank, suit = card[:-1], card[-1:]
    rank = "10" if rank == "T" else {"J": "V", "Q": "D", "K": "R"}.get(rank, rank) if lang == "fr" else rank
    return rank + _SUIT_SYMBOLS.get(suit, suit)


def pick_language(requested: str | None, accept: str | None) -> str:
    """``?lang=`` or the cookie first, then the browser's languages, else French (a French game)."""
    if requested in LANGUAGES:
        return requested
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return "fr"


def t(lang: str, key: str, **values: object) -> str:
    text = STRINGS.get(lang, STRINGS["en"]).get(key) or STRINGS["en"].get(key, key)
    return text.format(**values) if values else text


#: The tournament hall's words (``web_dashboard/hall_pages.py``).
_HALL = {
    "en": {"hall": "Hall", "results": "Results", "featured": "Featured table", "desk": "Organiser's desk",
           "played": "Played", "match_points": "Match points", "difference": "Difference",
           "opponents": "Opponents' score", "round": "Round", "rounds": "Rounds", "table": "Table",
           "side": "Side", "opponent": "Opponent", "against": "Against", "result": "Result",
           "result_won": "won", "result_lost": "lost", "result_drawn": "drawn", "result_bye": "bye",
           "result_playing": "playing", "licence": "licence", "matches": "Matches", "bye": "bye",
           "corrected": "corrected", "not_final": "not final", "audit": "Audit trail",
           "start_round": "Start the next round", "repair": "Pair again", "time_up": "Time is up",
           "close_round": "Close the round", "move_team": "Move a team", "correct_result": "Correct a result",
           "add_team": "Register a team", "withdraw": "Withdraw", "lag": "lag",
           "link_live": "live", "link_offline": "offline", "link_never": "not heard yet",
           "settings": "Settings", "format_deals": "N deals a round", "format_target": "to the target",
           "pairings": "Table assignment", "players": "Players"},
    "fr": {"hall": "Salle", "results": "Résultats", "featured": "Table à l'antenne", "desk": "Table d'arbitrage",
           "played": "Joués", "match_points": "Points de match", "difference": "Différence",
           "opponents": "Score des adversaires", "round": "Manche", "rounds": "Manches", "table": "Table",
           "side": "Camp", "opponent": "Adversaire", "against": "Contre", "result": "Résultat",
           "result_won": "gagné", "result_lost": "perdu", "result_drawn": "nul", "result_bye": "exempt",
           "result_playing": "en cours", "licence": "licence", "matches": "Matchs", "bye": "exempt",
           "corrected": "corrigé", "not_final": "provisoire", "audit": "Journal des décisions",
           "start_round": "Lancer la manche suivante", "repair": "Refaire les appariements",
           "time_up": "Temps écoulé", "close_round": "Clore la manche", "move_team": "Déplacer une équipe",
           "correct_result": "Corriger un résultat", "add_team": "Inscrire une équipe", "withdraw": "Retirer",
           "lag": "retard", "link_live": "en ligne", "link_offline": "hors ligne", "link_never": "jamais vue",
           "settings": "Réglages", "format_deals": "N donnes par manche", "format_target": "jusqu'au but",
           "pairings": "Placement des équipes", "players": "Joueurs"},
}
for _lang, _words in _HALL.items():
    STRINGS[_lang].update(_words)
