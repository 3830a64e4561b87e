"""The templates of the companion's errors, French then English (``companion.errors``): what is
wrong and what would be right. A game's own are in ``games/<g>/strings.py``.

Values from outside are quoted ``{value!r}`` or ``{value!c}`` (cut, ``companion.text``)."""

from __future__ import annotations

from companion.i18n import register

ERRORS: dict[str, tuple[str, str]] = {
    "pinout.err": ("{where} : {what}", "{where}: {what}"),
    "log.at_line": ("ligne {line} : {what}", "line {line}: {what}"),
    "cards.parse_card": (
        "{text!r} n'est pas une carte : écrivez la valeur puis la couleur, comme 7H, 10S, QC ou JK",
        "{text!r} is not a card: write rank then suit, like 7H, 10S, QC or JK",
    ),
    "cards.not_a_card_notation": (
        "{text!r} n'est pas une carte : valeurs A 2-10 J Q K, couleurs {suits} (valeur puis "
        "couleur, comme 7H, 10S, QC ; JK pour un joker)",
        "{text!r} is not a card: ranks are A 2-10 J Q K, suits {suits} (rank then suit, like 7H, "
        "10S, QC; JK for a joker)",
    ),
    "cards.parse_rank": (
        "{text!r} n'est pas une valeur : utilisez A 2-10 J Q K",
        "{text!r} is not a rank: use A 2-10 J Q K",
    ),
    "web.scorer.parse_entry": (
        "La table n'a pas encore de partie.",
        "The table has no game yet.",
    ),
    "web.scorer.not_an_event": (
        "La saisie du marqueur doit être un événement de {page_title} : {kinds}.",
        "The scorer's entry must be an event of {page_title}: {kinds}.",
    ),
    "web.scorer.entry_cannot_read": (
        "La saisie est illisible : {entry}.",
        "The entry cannot be read: {entry}.",
    ),
    "web.server.network_allowed": (
        "Le serveur des téléphones n'a pas droit au réseau : le bac à sable du kiosque ne l'ouvre "
        "qu'après un redémarrage, ou `sudo systemctl daemon-reload && sudo systemctl restart "
        "companion` (docs/kiosk.md).",
        "The phones' server may not use the network: the kiosk's sandbox opens it only after a "
        "reboot, or `sudo systemctl daemon-reload && sudo systemctl restart companion` "
        "(docs/kiosk.md).",
    ),
    "web.server.start": (
        "Le serveur des téléphones ne peut pas écouter sur {address} (port pris ou interdit) : "
        "choisissez un autre port dans [web].",
        "The phones' server cannot listen on {address} (in use, or not allowed): choose another [web] port.",
    ),
    # What the phones' server answers when it refuses (companion/web/refusal.py).
    "web.refused.font": ("Police inconnue.", "Unknown font."),
    "web.refused.join_code": (
        "Code inconnu : scannez celui de l’écran de la table.",
        "Unknown code: scan the one on the table's screen.",
    ),
    "web.refused.viewers": (
        "Trop de téléphones regardent déjà ({count}) : fermez la page sur l’un d’eux.",
        "Too many viewers already ({count}): close the page on one of them.",
    ),
    "web.refused.seat_code": (
        "Ce bouton n’est plus valable : scannez le code de votre place sur l’écran de la table.",
        "This button is no longer valid: scan your seat's code on the table's screen.",
    ),
    "web.refused.scorer_code": (
        "Code de marqueur inconnu ou retiré : scannez celui de l’écran de la table.",
        "Unknown or revoked scorer code: scan the one on the table's screen.",
    ),
    "web.refused.clock_origin": (
        "Refusé : la question ne vient pas de la page du marqueur.",
        "Refused: the question does not come from the scorer's page.",
    ),
    "web.refused.entry_origin": (
        "Envoi refusé : il ne vient pas de la page du marqueur.",
        "Refused: it does not come from the scorer's page.",
    ),
    "web.refused.entry_too_long": (
        "Saisie trop longue : au plus {limit:,.0f} octets.",
        "Entry too long: {limit:,.0f} bytes at most.",
    ),
    "web.refused.not_playing": (
        "La table ne joue pas encore : commencez une partie sur son écran.",
        "The table is not playing yet: start a game on its screen.",
    ),
    "snapshot.snapshot": (
        "impossible d'écrire {out} : le dossier {parent} n'existe pas ; créez-le (mkdir -p "
        "{parent}) ou donnez à --out un chemin dans un dossier qui existe",
        "cannot write {out}: the folder {parent} does not exist; make it (mkdir -p {parent}) or "
        "give --out a path in a folder that exists",
    ),
    "cli.settings.known": (
        "{path} : {dotted} n'est pas un réglage à part entière ; `companion config show` les liste tous.",
        "{path}: {dotted} is not a setting of its own; `companion config show` lists them all.",
    ),
    "cli.settings.effective": (
        "{dotted} n'est pas réglé et n'a pas de valeur par défaut (le companion le trouve seul).",
        "{dotted} is not set and has no default (the companion finds it by itself).",
    ),
    "cli.buttons.assign": (
        "{output} existe déjà : ajoutez --force pour le remplacer, ou --output pour écrire ailleurs.",
        "{output} already exists: add --force to replace it, or --output to write elsewhere.",
    ),
    "cli.buttons.with_pin_map": (
        "{output} est écrit d'une façon que --assign ne sait pas réécrire sans risque ; rien n'a "
        "été modifié : mettez `seats = [{pins}]` dans sa section [gpio] à la main",
        "{output} is laid out in a way --assign cannot rewrite safely; nothing was changed: put "
        "`seats = [{pins}]` in its [gpio] section by hand",
    ),
    "protocol.wrong_length": (
        "corps {kind} de {n} octets",
        "{kind} body of {n} bytes",
    ),
    "protocol.parse_body": (
        "type de message inconnu 0x{t:02x}",
        "unknown board message type 0x{t:02x}",
    ),
    "protocol.checked": (
        "trame de {n} octets trop courte",
        "frame of {n} bytes is too short",
    ),
    "protocol.checksum_mismatch": (
        "somme de contrôle fausse",
        "checksum mismatch",
    ),
    "protocol.parse_event": (
        "EVENT avec rôle {role} type {kind}",
        "EVENT with role {role} kind {kind}",
    ),
    "protocol.parse_hello": (
        "HELLO avec capture {capture}",
        "HELLO with capture path {capture}",
    ),
    "protocol.parse_command": (
        "commande de {n} caractères trop longue : {MAX_LINE} au plus",
        "command line of {n} characters is too long: at most {MAX_LINE}",
    ),
    "protocol.command_line_must": (
        "une commande commence par {mark!r}",
        "command line must start with {mark!r}",
    ),
    "protocol.cobs_decode": (
        "octet nul dans un bloc COBS",
        "zero byte inside a COBS block",
    ),
    "protocol.cobs_block_runs": (
        "bloc COBS plus long que la trame",
        "COBS block runs past the frame",
    ),
    "protocol.command_line_hex": (
        "commande non hexadécimale",
        "command line is not hex",
    ),
    "web.init": (
        "Les téléphones comme boutons demandent le serveur des téléphones : ajoutez --web, ou "
        "enabled = true dans la section [web] de la configuration.",
        "Phones as buttons need the phones' server: add --web, or enabled = true in the [web] "
        "section of the config.",
    ),
    "serial_source.open_error": (
        "Impossible d'ouvrir {port} ({e}) : vérifiez le câble et le nom du port.",
        "Cannot open {port} ({e}): check the cable and the port name.",
    ),
    "serial_source.not_our_board_error": (
        "{port} ne répond pas comme un boîtier de boutons du companion : vérifiez que c'est le "
        "port du Pico, ou lancez companion firmware install pour mettre le firmware sur le Pico.",
        "{port} does not answer as a table companion button board: check that it is the Pico's "
        "port, or run companion firmware install to put the firmware on the Pico.",
    ),
    "serial_source.permission_denied_add": (
        "Accès refusé à {port} : ajoutez l'utilisateur au groupe dialout (sudo usermod -aG dialout "
        "$USER), puis fermez et rouvrez la session.",
        "Permission denied on {port}: add the user to the dialout group (sudo usermod -aG dialout "
        "$USER), then log out and back in.",
    ),
    "serial_source.does_exist_plug": (
        "{port} n'existe pas : branchez le Pico avec un câble USB de données, ou indiquez son port "
        'dans le fichier de configuration ([serial] port = "/dev/ttyACM0") ; `companion firmware '
        "info --port PORT` vérifie un port.",
        "{port} does not exist: plug the Pico in with a data USB cable, or set its port in the "
        'config file ([serial] port = "/dev/ttyACM0"); `companion firmware info --port PORT` '
        "checks a port.",
    ),
    "serial_source.busy_close_other": (
        "{port} est occupé : fermez l'autre programme qui l'utilise (le service du companion : "
        "sudo systemctl stop companion ; Thonny, mpremote, screen).",
        "{port} is busy: close the other program using it (the companion's service: sudo systemctl "
        "stop companion; Thonny, mpremote, screen).",
    ),
    "serial_source.foreign_version_error": (
        "Le boîtier sur {port} doit recevoir un nouveau firmware (il parle le protocole "
        "v{version}, ce companion v{ours}) : lancez companion firmware install.",
        "The board on {port} needs new firmware (it speaks protocol v{version}, this companion "
        "v{ours}): run companion firmware install.",
    ),
    "serial_source.serial": (
        "pyserial n'est pas installé : {pip}",
        "pyserial is not installed: {pip}",
    ),
    "serial_source.open": (
        "Aucun boîtier Pico trouvé en USB : branchez-le avec un câble de données, ou indiquez son "
        'port dans le fichier de configuration ([serial] port = "/dev/ttyACM0").',
        "No Pico button board found on USB: plug it in with a data cable, or set its port in the "
        'config file ([serial] port = "/dev/ttyACM0").',
    ),
    "registry.untied": (
        "L'horloge de la source {name} ({clock_name}) ne peut pas être reliée à {common}, elle ne "
        "peut pas être combinée : utilisez-la seule.",
        "The {name} source's clock ({clock_name}) cannot be tied to {common}, so it cannot be "
        "combined: use it alone.",
    ),
    "registry.init": (
        "La source {name} ne dit pas avec quelle horloge elle date, elle ne peut pas être combinée "
        ": utilisez-la seule.",
        "The {name} source does not say which clock it stamps with, so it cannot be combined: use it alone.",
    ),
    "gpiochip.explain_chip_failure": (
        "Impossible d'ouvrir {dev} ({exc}) : ce n'est pas un Raspberry Pi ou le numéro de puce est "
        "faux ; sur un portable utilisez --input keyboard.",
        "Cannot open {dev} ({exc}): this is not a Raspberry Pi or the chip number is wrong; on a "
        "laptop use --input keyboard.",
    ),
    "gpiochip.permission_open_add": (
        "Pas le droit d'ouvrir {dev} : ajoutez l'utilisateur au groupe gpio (`sudo usermod -aG "
        "gpio $USER`, puis reconnectez-vous).",
        "No permission to open {dev}: add the user to the gpio group (`sudo usermod -aG gpio "
        "$USER`, then log in again).",
    ),
    "keyboard.bindings": (
        "Deux boutons partagent une touche : donnez une touche à chaque place et bouton d'arbitre.",
        "Two buttons share a key: give each seat and referee button its own key.",
    ),
    "keyboard.key_code": (
        '« {name} » n\'est pas un nom de touche connu de pygame : utilisez par ex. "1", "a", '
        '"space", "return" ou "[1]" (pavé numérique 1).',
        '"{name}" is not a key name pygame knows: use names such as "1", "a", "space", '
        '"return" or "[1]" (numpad 1).',
    ),
    "keyboard.from_config": (
        "{n_seats} joueurs mais seulement {n_keys} touches dans [keyboard] seats : ajoutez des "
        "touches pour les autres.",
        "{n_seats} players but only {n_keys} seat keys in [keyboard] seats: add keys for the others.",
    ),
    "keyboard.start": (
        "Pas de fenêtre pour le clavier ({failure}) : lancez-le dans une session graphique, ou "
        "utilisez --input sim.",
        "No window for the keyboard ({failure}): run it in a desktop session, or use --input sim.",
    ),
    "config.parse_pin": (
        '{value!r} n\'est pas une broche : écrivez le numéro GPIO, par ex. 17, "GPIO17" ou "BOARD11".',
        '{value!r} is not a pin: write the GPIO number, e.g. 17, "GPIO17" or "BOARD11".',
    ),
    "config.one_sentence": (
        "{where} : {loc!c} = {got!r} est refusé ({msg}).",
        "{where}: {loc!c} = {got!r} is refused ({msg}).",
    ),
    "config.pin_write_gpio": (
        '{value!r} n\'est pas une broche : écrivez le numéro GPIO, par ex. 17 ou "GPIO17".',
        '{value!r} is not a pin: write the GPIO number, e.g. 17 or "GPIO17".',
    ),
    "config.check_pin_map": (
        "Le plan de câblage a {n_seats} places ; {MAX_SEATS} joueurs au plus.",
        "The pin map has {n_seats} seats; at most {MAX_SEATS} players can sit down.",
    ),
    "config.quarter_turn": (
        "[display] rotate = {value!r} est refusé : l'écran tourne de 0, 90, 180 ou 270 degrés "
        "(dans le sens des aiguilles d'une montre).",
        "[display] rotate = {value!r} is refused: the screen turns by 0, 90, 180 or 270 degrees (clockwise).",
    ),
    "config.known": (
        '[table] lang = {value!r} est refusé : le companion parle "fr" (français) ou "en" (anglais).',
        '[table] lang = {value!r} is refused: the companion speaks "fr" (French) or "en" (English).',
    ),
    "config.on_off": (
        '[sound] voice = {value!r} est refusé : écrivez "on" (les verdicts dits à voix haute) ou "off".',
        '[sound] voice = {value!r} is refused: write "on" (the verdicts said aloud) or "off".',
    ),
    "config.said": (
        "[sound] names = {value!r} est refusé : écrivez une table de noms, comme [sound.names] "
        'puis "Chloé" = "Klo-é".',
        "[sound] names = {value!r} is refused: write a table of names, as [sound.names] then "
        '"Chloé" = "Klo-é".',
    ),
    "config.unknown_setting_check": (
        "{where} : réglage inconnu {loc} ; vérifiez l'orthographe dans `companion config show "
        "--example` (chaque réglage, commenté).",
        "{where}: unknown setting {loc}; check its spelling against `companion config show "
        "--example` (every setting, commented).",
    ),
    "config.there_header_pin": (
        "Il n'y a pas de broche {pos} : le connecteur a les broches 1 à 40.",
        "There is no header pin {pos}: the header has pins 1 to 40.",
    ),
    "config.seat_has_button": (
        "La place {seat} n'a pas de broche de bouton : ajoutez `button = <numéro GPIO>`, ou lancez "
        "`companion buttons --assign`.",
        "Seat {seat} has no button pin: add `button = <GPIO number>` to it, or run `companion "
        "buttons --assign`.",
    ),
    "config.check": (
        "keyboard.seats donne {n_seats} touches ; {MAX_SEATS} joueurs au plus.",
        "keyboard.seats lists {n_seats} keys; at most {MAX_SEATS} players.",
    ),
    "config.port": (
        "serial.port = {v!r} n'est pas un chemin de périphérique : écrivez-en un comme "
        '"/dev/ttyACM0", ou retirez-le pour trouver le boîtier par son identifiant USB.',
        'serial.port = {v!r} is not a device path: write one like "/dev/ttyACM0", or leave it '
        "out to find the board by its USB id.",
    ),
    "config.sound_names_refused": (
        "[sound.names] {name!r} = {said!r} est refusé : écrivez comment le nom se dit, en texte de "
        '1 à 80 caractères, comme "Chloé" = "Klo-é".',
        "[sound.names] {name!r} = {said!r} is refused: write how the name is said as text of 1 to "
        '80 characters, as "Chloé" = "Klo-é".',
    ),
    "config.require_gpio_seats": (
        "Aucune broche de bouton dans la configuration ([gpio] seats) : lancez `companion buttons "
        "--assign` pour les écrire, ou utilisez --input keyboard.",
        "No button pins in the config ([gpio] seats): run `companion buttons --assign` to write "
        "them, or use --input keyboard.",
    ),
    "config.header_pin_gpio": (
        "La broche {pos} du connecteur est {what}, pas un GPIO : reliez le bouton à une broche "
        "GPIO et son autre patte à une broche GND.",
        "Header pin {pos} is {what}, not a GPIO: wire the button to a GPIO pin and its other leg "
        "to a GND pin.",
    ),
    "config.debounce_misfit": (
        "Les réglages anti-rebond sont incohérents ({why}) : gardez glitch_ms au plus égal à lockout_ms et "
        "stuck_after_s plus long que le verrouillage.",
        "Debounce settings do not fit together ({why}): keep glitch_ms no longer than lockout_ms and "
        "stuck_after_s longer than the lockout.",
    ),
    "config.from_toml": (
        "{where} n'est pas du TOML valide ({exc}) ; corrigez cette ligne.",
        "{where} is not valid TOML ({exc}); fix that line.",
    ),
    "config.nests_tables_arrays": (
        "{where} imbrique tables ou listes beaucoup trop profondément pour une configuration ; "
        "écrivez-le comme `companion config show --example`.",
        "{where} nests tables or arrays far too deep to be a config; write it as `companion config "
        "show --example` does.",
    ),
    "config.from_file": (
        "Le fichier de configuration {path} n'est pas du texte UTF-8 (octet {column}) ; "
        "enregistrez-le en UTF-8.",
        "The config file {path} is not UTF-8 text (byte {column}); save it as UTF-8.",
    ),
    "web_config.port": (
        "[web] port = {v} n'est pas un port TCP : choisissez-en un de 1024 à 65535, par ex. 8325.",
        "[web] port = {v} is not a TCP port: choose one from 1024 to 65535, e.g. 8325.",
    ),
    "web_config.bind": (
        '[web] bind = {v!r} n\'est pas une adresse IP : écrivez "0.0.0.0" (tous les réseaux) ou '
        '"127.0.0.1" (cette machine seulement).',
        '[web] bind = {v!r} is not an IP address: write "0.0.0.0" (every network) or '
        '"127.0.0.1" (this machine only).',
    ),
    "sources.build_source": (
        "« {name} » n'est pas une source d'entrée : choisissez gpio, serial, keyboard, sim ou web.",
        '"{name}" is not an input source: choose gpio, serial, keyboard, sim or web.',
    ),
    "sources.build_gpio": (
        "{n_seats} joueurs mais seulement {have} broches de bouton dans [gpio] seats : câblez et "
        "ajoutez les autres, ou lancez `companion buttons --assign`.",
        "{n_seats} players but only {have} button pins in [gpio] seats: wire and add the others, "
        "or run `companion buttons --assign`.",
    ),
    "config_edit.parse_key": (
        "{text!r} n'est pas le nom d'un réglage : écrivez la section et la clé séparées par un "
        "point, comme table.lang ou input.source",
        "{text!r} is not a setting's name: write the section and the key with a dot, like "
        "table.lang or input.source",
    ),
    "config_edit.check": (
        "{where} est écrit d'une façon que `companion config` ne sait pas modifier sans risque (la "
        "clé tient sur plusieurs lignes, ou sa section est écrite en ligne) ; rien n'a été modifié "
        ": réglez {name} dans sa section [{section}] à la main",
        "{where} is laid out in a way `companion config` cannot change safely (the key spans "
        "several lines, or its section is written inline); nothing was changed: set {name} in its "
        "[{section}] section by hand",
    ),
    "config_edit.read_config_text": (
        "Le fichier de configuration {path} n'est pas du texte UTF-8 (octet {column}) ; "
        "enregistrez-le en UTF-8.",
        "The config file {path} is not UTF-8 text (byte {column}); save it as UTF-8.",
    ),
    "log.explain": (
        "{what} : {msg}",
        "{what}: {msg}",
    ),
    "log.not_utf8": (
        "l'octet {column} n'est pas du texte UTF-8 ({byte!r}) : un journal "
        "de table est du JSON Lines en UTF-8",
        "byte {column} is not UTF-8 text ({byte!r}): a table log is JSON Lines in UTF-8",
    ),
    "log.card": (
        '{value!r} n\'est pas une carte : écrivez-la comme du texte, par exemple "7H" ou "10"',
        '{value!r} is not a card: write it as text, like "7H" or "10"',
    ),
    "log.unknown_key_event": (
        "clé inconnue {loc!r} dans un événement {kind} (permises : {fields})",
        "unknown key {loc!r} in a {kind} event (allowed: {fields})",
    ),
    "log.event_needs_key": (
        "un événement {kind} doit avoir la clé {loc!r}",
        "a {kind} event needs the key {loc!r}",
    ),
    "log.value_refused": (
        "{loc} : {msg}",
        "{loc}: {msg}",
    ),
    "log.event_from_dict": (
        'un événement doit être un objet JSON comme {{"type": "press", ...}}',
        'an event must be a JSON object like {{"type": "press", ...}}',
    ),
    "log.check_new_names": (
        "le nom {spelled_name} n'affiche rien à l'écran : écrivez un nom que la table peut lire",
        "the name {spelled_name} shows nothing on the screen: write a name the table can read",
    ),
    "log.name_starts_which": (
        "le nom {name} commence par {first!r}, qu'un tableur exécuterait comme une formule : "
        "commencez-le par une lettre",
        "the name {name} starts with {first!r}, which a spreadsheet would run as a formula: start "
        "it with a letter",
    ),
    "log.look_same_screen": (
        "{spelled} et {spelled_name} s'affichent pareil à l'écran : donnez à chaque "
        "joueur un nom que la table distingue",
        "{spelled} and {spelled_name} look the same on the screen: give each player a "
        "name the table can tell apart",
    ),
    "log.unknown_game_use": (
        "jeu inconnu {name_json} : utilisez {known}",
        "unknown game {name_json}: use {known}",
    ),
    "log.unknown_event_type": (
        "type d'événement inconnu {kind_json} (connus : {known})",
        "unknown event type {kind_json} (known: {known})",
    ),
    "log.parse_slow": (
        "pas un événement du journal de table : un nombre beaucoup trop long ou une imbrication "
        "beaucoup trop profonde",
        "not a table-log event: a number is far too long or the nesting far too deep",
    ),
    "log.names": (
        "le nom d'un joueur ne peut pas être vide",
        "a player's name cannot be empty",
    ),
    "log.name_longer_than": (
        "le nom {name} dépasse {MAX_NAME} caractères",
        "the name {name} is longer than {MAX_NAME} characters",
    ),
    "log.two_players_called": (
        "deux joueurs s'appellent {name!r} : les noms doivent être uniques",
        "two players are called {name!r}: names must be unique",
    ),
    "log.not_an_event_of_game": (
        "{kind} n'est pas un événement de {title} (ses événements : new_game, {models})",
        "{kind} is not an event of {title} (its events: new_game, {models})",
    ),
    "live.resume": (
        "aucune partie en cours à reprendre",
        "there is no unfinished game to resume",
    ),
    "live.there_unfinished_game": (
        "aucune partie en cours à reprendre (`companion games` liste les parties enregistrées)",
        "there is no unfinished game to resume (`companion games` lists the stored ones)",
    ),
    "registry.stats": (
        "le jeu {name!r} ne donne pas ses statistiques : {where} doit définir STATS "
        "(docs/architecture.md, Adding a game)",
        "the game {name!r} gives no statistics: {where} must define STATS "
        "(docs/architecture.md, Adding a game)",
    ),
    "registry.info": (
        "jeu inconnu {name!r} : le companion connaît {known}",
        "unknown game {name!r}: the companion knows {known}",
    ),
    "fold.fold_journal": (
        "la partie {game_id} est vide",
        "game {game_id} has no events",
    ),
    "fold.fold": (
        "le journal ne contient aucune partie : il faut un événement new_game",
        "the log holds no game: it needs a new_game event",
    ),
    "fold.feed": (
        "un journal de table contient une seule partie : un second new_game commence ici (séparez "
        "le fichier, une partie chacun)",
        "a table log holds one game: a second new_game starts here (split the file, one game each)",
    ),
    "fold.log_must_start": (
        "le journal doit commencer par un événement new_game, pas {type}",
        "the log must start with a new_game event, not {type}",
    ),
    "games.undo.reload": (
        "les décisions plus anciennes gardées pour l'annulation n'ont pas pu être relues dans le "
        "dossier temporaire ({why}) : rejouez la partie depuis son journal",
        "the older decisions kept for undo could not be read back from the temporary folder "
        "({why}): replay the game from its log or journal",
    ),
    "journal.disk_full": (
        "le disque de {data_dir} est plein : libérez de la place (ou indiquez avec --data-dir un "
        "dossier sur un autre disque), puis relancez la commande ; le journal n'a pas été modifié",
        "the disk holding {data_dir} is full: free some space on it (or pass --data-dir with a "
        "folder on another disk), then run the command again; the journal was left as it was",
    ),
    "journal.read_only": (
        "{what} est en lecture seule, aucune partie ne peut y être écrite ; `companion games` et "
        "`companion export` peuvent encore le lire : pour jouer, indiquez avec --data-dir un "
        "dossier modifiable (copiez-y le journal pour garder ses parties)",
        "{what} is read-only, so no game can be written there; `companion games` and `companion "
        "export` can still read it: to play, pass --data-dir with a folder you can write to (copy "
        "the journal there to keep its games)",
    ),
    "journal.not_a_folder": (
        "{data_dir} n'est pas un dossier : --data-dir nomme le dossier qui contient le journal "
        "({filename}), par ex. --data-dir {parent}",
        "{data_dir} is not a folder: --data-dir names the folder that holds the journal "
        "({filename}), e.g. --data-dir {parent}",
    ),
    "journal.no_journal_yet": (
        "il n'y a pas encore de journal dans {path} : aucune partie n'a été jouée avec ce dossier de données",
        "there is no journal at {path} yet: no game has been played with this data directory",
    ),
    "journal.locked": (
        "un autre companion (pid {pid}) utilise déjà le journal de {data_dir} : fermez-le d'abord, "
        "ou indiquez un autre dossier avec --data-dir",
        "another companion (pid {pid}) is already using the journal in {data_dir}: close it first, "
        "or pass --data-dir to keep a separate journal",
    ),
    "journal.foreign_sql": (
        "le journal {path} contient du SQL que le companion n'a pas créé ({foreign}), qui "
        "s'exécuterait à notre prochaine écriture ; il n'a pas été modifié : `companion games`, "
        "`history` et `export` lisent encore ses parties ; pour jouer, indiquez un autre dossier "
        "avec --data-dir",
        "the journal {path} holds SQL not created by the companion ({foreign}), which would run on "
        "our next write; it was left untouched: `companion games`, `history` and `export` still "
        "read its games; to play, pass --data-dir with another folder",
    ),
    "journal.read_only_media": (
        "le journal {path} est sur un support en lecture seule avec des écritures inachevées dans "
        "{name} : copiez tout le dossier dans un endroit modifiable et indiquez la copie avec "
        "--data-dir ; rien n'a été modifié",
        "the journal {path} is on read-only media with unfinished writes in {name}: copy the whole "
        "folder to a writable place and pass --data-dir with the copy; nothing was changed",
    ),
    "journal.cannot_create": (
        "impossible de créer le journal {path} : {err}",
        "could not create the journal {path}: {err}",
    ),
    "journal.cannot_write": (
        "impossible d'écrire dans le journal {path} : {err}",
        "could not write to the journal {path}: {err}",
    ),
    "journal.no_game_yet": (
        "le journal {path} ne contient encore aucune partie",
        "the journal {path} holds no game yet",
    ),
    "journal.unknown_game": (
        "aucune partie {game_id!r} dans le journal (dernières : {known}) ; `companion games` les "
        "liste toutes",
        "no game {game_id!r} in the journal (latest: {known}); `companion games` lists them all",
    ),
    "journal.event_missing": (
        "l'événement {expected} de la partie {game_id} manque dans le journal {path}",
        "event {expected} of game {game_id} is missing from the journal {path}",
    ),
    "journal.broken": (
        "le journal {path} est illisible ({why}) ; il n'a pas été modifié : déplacez-le pour en "
        "commencer un nouveau, ou indiquez un autre dossier avec --data-dir",
        "the journal {path} cannot be read ({why}); it was left untouched: move it aside to start "
        "a new journal, or pass --data-dir to use another folder",
    ),
    "journal.os_error": (
        "impossible d'écrire dans le dossier du journal {data_dir} ({why}) ; indiquez un dossier "
        "accessible avec --data-dir",
        "cannot write the journal folder {data_dir} ({why}); pass --data-dir with a folder you can write to",
    ),
    "journal.path_too_long": (
        "le chemin du dossier de données est trop long pour le système de fichiers ({size} "
        "caractères : {data_dir}) ; indiquez un chemin plus court avec --data-dir",
        "the data folder path is too long for the file system ({size} characters: {data_dir}); "
        "pass --data-dir with a shorter path",
    ),
    "journal.unreachable": (
        "le dossier de données {data_dir} est inaccessible ({why}) ; indiquez un dossier "
        "utilisable avec --data-dir",
        "the data folder {data_dir} cannot be reached ({why}); pass --data-dir with a folder you can use",
    ),
    "journal.lost_one": ("le dernier événement n'a pas été enregistré", "the last event was not recorded"),
    "journal.lost_many": (
        "les {lost} derniers événements n'ont pas été enregistrés",
        "the last {lost} events were not recorded",
    ),
    "journal.write_error": (
        "le disque de {data_dir} est plein : {lost}, tous les précédents sont sûrs ; libérez de la "
        "place, puis `companion resume` reprend la partie",
        "the disk holding {data_dir} is full: {lost}, every earlier one is safe; free some space, "
        "then `companion resume` continues the game",
    ),
    "journal.event_damaged": (
        "l'événement {seq} de la partie {game_id} du journal {path} est abîmé : {what}",
        "event {seq} of game {game_id} in the journal {path} is damaged: {what}",
    ),
    "log.name_invisible": (
        "le nom {value!r} contient {what} ({code}) : un nom est du texte visible ordinaire",
        "the name {value!r} holds {what} ({code}): names are plain visible text",
    ),
    "log.wrong_type": (
        "{loc!r} dans un événement {kind} doit être {what}, pas {got}",
        "{loc!r} in a {kind} event must be {what}, not {got}",
    ),
    "log.not_allowed": (
        "{loc!r} ne peut pas valoir {got} : utilisez {allowed}",
        "{loc!r} cannot be {got}: use {allowed}",
    ),
    "log.out_of_range": (
        "{loc!r} est hors limites : il faut {side} {bound}, pas {got}",
        "{loc!r} is out of range: it must be {side} {bound}, not {got}",
    ),
    "log.key_twice": (
        "la clé {key} apparaît deux fois dans cet événement : n'en gardez qu'une (les lecteurs "
        "JSON ne s'accordent pas sur celle qui compte)",
        "the key {key} appears twice in this event: keep one (JSON readers disagree on which one counts)",
    ),
    "log.not_json": (
        "JSON invalide ({why} à la colonne {column})",
        "not valid JSON ({why} at column {column})",
    ),
    "log.too_long": (
        "plus long que {cap} octets : une ligne du journal de table contient un événement, "
        "quelques centaines d'octets au plus",
        "longer than {cap} bytes: a table-log line holds one event, a few hundred bytes at most",
    ),
    "config.pin_off_header": (
        "GPIO{pin} pour {use} n'est pas sur le connecteur 40 broches : prenez un GPIO de 2 à 27.",
        "GPIO{pin} for {use} is not on the 40-pin header: use a GPIO from 2 to 27.",
    ),
    "config.pin_on_bus": (
        "GPIO{pin} pour {use} appartient au bus {bus_name} activé : prenez une autre broche, ou "
        'retirez "{bus}" de gpio.buses si ce bus ne sert pas.',
        "GPIO{pin} for {use} belongs to the enabled {bus_name} bus: pick another pin, or remove "
        '"{bus}" from gpio.buses if the bus is not used.',
    ),
    "config.pin_twice": (
        "GPIO{pin} sert deux fois, pour {first} et pour {use} : chacun a besoin de sa propre broche.",
        "GPIO{pin} is used twice, for {first} and for {use}: each needs its own pin.",
    ),
    "config.key_twice": (
        "La touche « {key} » est donnée à {first} et à {who} : une touche chacun.",
        'The key "{key}" is given to both {first} and {who}: give each its own key.',
    ),
    "config.cannot_read": (
        "Impossible de lire le fichier de configuration {path} ({why}) ; vérifiez le chemin donné "
        "à --config.",
        "Cannot read the config file {path} ({why}); check the path given to --config.",
    ),
    "config.did_you_mean": ("vouliez-vous dire [{near}] ? ", "did you mean [{near}]? "),
    "config.unknown_section": (
        "{where} : section inconnue [{name}] ; {hint}les sections sont {known}.",
        "{where}: unknown section [{name}]; {hint}the sections are {known}.",
    ),
    # pydantic's refusals as a player meets them in a config file: the English is pydantic's
    # own sentence (hardware/config.py's PydanticWhy), the French says the same.
    "pydantic.missing": ("valeur obligatoire", "Field required"),
    "pydantic.type": ("il faut {what}", "Input should be {what}"),
    "pydantic.range": ("il faut {side} {bound}", "Input should be {side} {bound}"),
    "pydantic.extra": ("clé inconnue ici", "Extra inputs are not permitted"),
    "pydantic.literal": ("valeurs possibles : {expected}", "Input should be {expected}"),
    "pydantic.finite": ("il faut un nombre fini", "Input should be a finite number"),
    "config.debounce.glitch": (
        "le minimum anti-parasite dépasse le verrouillage",
        "glitch minimum must not exceed the lockout",
    ),
    "config.debounce.stuck": (
        "la limite de bouton coincé doit dépasser le verrouillage",
        "stuck limit must be longer than the lockout",
    ),
    "gpio.no_gpiod": (
        "La bibliothèque gpiod (l'interface Python de libgpiod) n'est pas installée, les boutons "
        "GPIO du Pi ne peuvent pas être lus : sur un Raspberry Pi lancez `{pip}` ; sur un portable "
        "utilisez --input keyboard (ou --input sim pour une démo).",
        "The gpiod library (libgpiod's Python binding) is not installed, so the Pi's GPIO buttons "
        "cannot be read: on a Raspberry Pi run `{pip}`; on a laptop use --input keyboard (or "
        "--input sim for a demo).",
    ),
    "gpio.no_chip_at_all": ("aucun /dev/gpiochip*", "no /dev/gpiochip* at all"),
    "gpio.no_header_chip": (
        "Aucune puce GPIO ici n'a de lignes nommées {names} comme le connecteur 40 broches du "
        "Raspberry Pi (vu : {looked}), donc aucune broche n'a été ouverte : sur un Pi réglez "
        "[gpio] chip sur le numéro de la puce du connecteur, sur un portable utilisez --input "
        "keyboard.",
        "No GPIO chip here has lines named {names} like the Raspberry Pi's 40-pin header (looked "
        "at: {looked}), so no pin was opened: on a Pi set [gpio] chip to the header's chip number, "
        "on a laptop use --input keyboard.",
    ),
    "gpio.line_busy": (
        "GPIO{pin} est tenue par un autre programme, sans doute le service du companion : sudo "
        "systemctl stop companion, puis relancez la commande (sudo systemctl start companion "
        "ensuite).",
        "GPIO{pin} is held by another program, most likely the companion's service: sudo "
        "systemctl stop companion, then run the command again (sudo systemctl start companion "
        "after).",
    ),
    "gpio.line_refused": (
        "GPIO{pin} est inutilisable ({exc}) ; choisissez une autre broche dans le plan de câblage.",
        "GPIO{pin} cannot be used ({exc}); pick another pin in the pin map.",
    ),
    "gpio.button_refused": (
        "GPIO{pin} pour {button} est inutilisable ({exc}) ; choisissez une autre broche dans le "
        "plan de câblage.",
        "GPIO{pin} for {button} cannot be used ({exc}); pick another pin in the pin map.",
    ),
    "buttons.cannot_write": (
        "impossible d'écrire le plan de câblage dans {output} ({why}) : indiquez avec --output un "
        "fichier dans un dossier modifiable ; rien n'a été modifié",
        "cannot write the pin map to {output} ({why}): pass --output with a file in a folder you "
        "can write to; nothing was changed",
    ),
    "cli.export_damaged": (
        "{what} ; rien n'a été exporté, le journal n'a pas été modifié",
        "{what}; nothing was exported, the journal was left untouched",
    ),
    "play.no_web_extra": (
        "Les téléphones demandent l'extra « web », qui n'est pas installé (il manque {missing}) : "
        "lancez {command} puis redémarrez la table, ou éteignez-les (companion config set "
        "web.enabled false).",
        "The phones need the 'web' extra, which is not installed ({missing} is missing): run "
        "{command} and restart the table, or turn them off (companion config set web.enabled "
        "false).",
    ),
    "protocol.frame_too_long": ("trame trop longue", "frame of {size} bytes is too long"),
    "protocol.unknown_command": (
        "commande inconnue 0x{type:02x}",
        "unknown command 0x{type:02x} ({size} bytes)",
    ),
    "inputs.install_extra": ("installez-le avec `{pip}`", "install it with `{pip}`"),
    "inputs.other_input": (
        "utilisez --input keyboard ou --input sim",
        "use --input keyboard or --input sim",
    ),
    "inputs.cannot_load": (
        "La source d'entrée {source} ne peut pas être chargée ({exc}) ; {hint}.",
        "The input source {source} cannot be loaded ({exc}); {hint}.",
    ),
    "serial.newer_firmware": (
        "Le boîtier sur {port} a un firmware plus récent (protocole v{version}, ce companion parle "
        "v{ours}) : mettez le companion à jour ({upgrade}), ou lancez companion firmware install "
        "pour y remettre le firmware de ce companion.",
        "The board on {port} runs newer firmware (protocol v{version}, this companion speaks "
        "v{ours}): update the companion ({upgrade}), or run companion firmware install to put this "
        "companion's firmware on the board.",
    ),
    "fold.does_not_replay": (
        "l'événement {seq} de la partie {game_id} du journal ne se rejoue pas, la partie ne peut "
        "être reconstruite : {what}",
        "event {seq} of game {game_id} in the journal does not replay, so the game cannot be rebuilt: {what}",
    ),
    "leds.no_pwm": (
        ", ou mettez led_pwm = false si elle ne fait pas de PWM",
        ", or set led_pwm = false if this pin cannot do PWM",
    ),
    "leds.cannot_drive": (
        "La LED de la place {seat} sur GPIO{pin} ne peut pas être pilotée ({why}) ; prenez une "
        "autre broche dans le plan de câblage{hint}.",
        "The LED of seat {seat} on GPIO{pin} cannot be driven ({why}); pick another pin in the pin "
        "map{hint}.",
    ),
    # The French verb carries its preposition, elided as it is said ("d'écrire", "de lire").
    "config_edit.read": ("de lire", "read"),
    "config_edit.write": ("de écrire", "write"),
    "config_edit.cannot": (
        "impossible {action} le fichier de configuration {path} ({why}) : indiquez avec --config un "
        "fichier que cet utilisateur peut utiliser ; rien n'a été modifié",
        "cannot {action} the config file {path} ({why}): pass --config with a file this user can "
        "use; nothing was changed",
    ),
    "pinout.int": (
        "{what} = {value!r} n'est pas un numéro de GPIO : écrivez par ex. 17.",
        "{what} = {value!r} is not a GPIO number: write e.g. 17.",
    ),
    "pinout.board": (
        "la table [{name}] manque : reprenez-la du hardware/pinout.toml du dépôt.",
        "the [{name}] table is missing: copy it from the repository's hardware/pinout.toml.",
    ),
    "pinout.referee_referee_button": (
        "{name}.referee.{bad} n'est pas un bouton d'arbitre : confirm, cancel ou undo.",
        "{name}.referee.{bad} is not a referee button: use confirm, cancel, undo.",
    ),
    "pinout.check": (
        "led.resistor_ohm = {resistor_ohm:g} est trop faible : prenez 220 à 1000 Ω (330 Ω d'habitude).",
        "led.resistor_ohm = {resistor_ohm:g} is too small: use 220 to 1000 Ω (330 Ω is the usual).",
    ),
    "pinout.check_board": (
        "{name} a {n_seats} places : donnez-en de 1 à 10.",
        "{name} has {n_seats} seats: give 1 to 10.",
    ),
    "pinout.safe_mode_one": (
        "{name}.safe_mode = {safe_mode!r} n'est pas un de ses boutons d'arbitre : confirm, cancel ou undo.",
        "{name}.safe_mode = {safe_mode!r} is not one of its referee buttons: name confirm, cancel or undo.",
    ),
    "pinout.check_exists": (
        "pi : GPIO{pin} pour {use} n'est pas sur le connecteur 40 broches : prenez un GPIO de 2 à 27.",
        "pi: GPIO{pin} for {use} is not on the 40-pin header: use a GPIO from 2 to 27.",
    ),
    "pinout.pico_gp_board": (
        "pico : GP{pin} pour {use} est câblé sur la carte ({pico_reserved_pin}), pas sur un bord : "
        "prenez un GP0-GP22 ou GP26-GP28 libre.",
        "pico: GP{pin} for {use} is {pico_reserved_pin} on the board, not an edge pin: pick a free "
        "GP0-GP22 or GP26-GP28.",
    ),
    "pinout.pico_gp_does": (
        "pico : GP{pin} pour {use} n'existe pas : prenez GP0-GP22 ou GP26-GP28.",
        "pico: GP{pin} for {use} does not exist: use GP0-GP22 or GP26-GP28.",
    ),
    "pinout.check_free": (
        "{name} : {gpio} pour {use} appartient au bus {bus_name} : prenez une autre broche, "
        'ou ajoutez "{bus}" à {name}.gives_up si ce bus ne servira jamais.',
        "{name}: {gpio} for {use} belongs to the {bus_name} bus: pick another pin, or add "
        '"{bus}" to {name}.gives_up if that bus will never be used.',
    ),
    "pinout.used_twice_give": (
        "{name} : {gpio} sert deux fois, pour {first} et pour {use} : une broche chacun.",
        "{name}: {gpio} is used twice, for {first} and for {use}: give each its own pin.",
    ),
    "pinout.seats_needs_button": (
        "{name}.seats[{i}] n'a pas de bouton : écrivez {{ button = <GPIO> }}.",
        "{name}.seats[{i}] needs a button: write {{ button = <GPIO> }}.",
    ),
    "pinout.gives_up_unknown_bus": (
        "{name}.gives_up nomme {bus!r}, qui n'est pas un bus de cette carte : {buses}.",
        "{name}.gives_up names {bus!r}, not a bus of this board: use {buses}.",
    ),
    "pinout.parse_pinout": (
        "ce n'est pas du TOML valide ({exc}) ; corrigez cette ligne.",
        "not valid TOML ({exc}); fix that line.",
    ),
    "pinout.one_led_draws": (
        "une LED tire {led_ma:.1f} mA à travers {resistor_ohm:g} Ω, plus que les {pin_max_ma:g} mA "
        "d'une broche du {name} : prenez une résistance plus forte dans [led].",
        "one LED draws {led_ma:.1f} mA through {resistor_ohm:g} Ω, more than the {pin_max_ma:g} mA "
        "a {name} pin gives: use a larger resistor in [led].",
    ),
    "pinout.leds_ma_draw": (
        "{lit} LED à {led_ma:.1f} mA tirent {lit_ma:.0f} mA ensemble, plus que les "
        "{total_max_ma:g} mA permis par le {name} : résistance plus forte ou moins de LED.",
        "{lit} LEDs at {led_ma:.1f} mA draw {lit_ma:.0f} mA together, more than the "
        "{total_max_ma:g} mA the {name} allows: use a larger resistor or fewer LEDs.",
    ),
}

register(ERRORS)
