"""The suite, a package: its folders mirror companion/ (tests/README.md), so that two games'
test_rules.py are two modules, tests.games.kilo.test_rules and tests.games.treize.test_rules."""
