"""The bounds of a trip railtrip plans, said once: the intent model, the planning use case,
the trip builder and the precheck read them from here.

Within them the engine plans; past them a traveller is told (a class of 80 is planned for
60 and the reply says so; a structured intent with 9 via stops is refused naming the field).
"""

MAX_ORDER = 9
"""Tickets in one 12306 order: a booking precheck is for one order; a larger party is planned
whole and told in how many orders it buys."""

GROUP_TICKETS = 20
"""From this many travellers 12306 and the stations also sell group tickets (团体票)."""

MAX_PARTY = 60
"""Travellers in one plan, the largest party an intent may state: a class or a team travels on
one train (each seat class checked for the whole party); past it the plan is for `MAX_PARTY`."""

MAX_VIA_STOPS = 8
"""Stops between origin and destination: each costs ticket queries of one plan's budget."""

MAX_TRIP_DAYS = 60
"""The longest trip (days, and nights in all) an intent may describe."""
