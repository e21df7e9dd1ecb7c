"""The bounds of a trip railtrip plans, said once: the intent model, the planning use case,
the trip builder and the precheck read them from here.

Within them the engine plans; past them a traveller is told (a party of 12 is planned for 9
and the reply says so; a structured intent with 9 via stops is refused naming the field).
"""

MAX_PARTY = 9
"""Travellers in one plan or booking: 12306 sells at most nine tickets per order."""

MAX_STATED_PARTY = 20
"""The largest party an intent may state; above `MAX_PARTY` the plan is for `MAX_PARTY`."""

MAX_VIA_STOPS = 8
"""Stops between origin and destination: each costs ticket queries of one plan's budget."""

MAX_TRIP_DAYS = 60
"""The longest trip (days, and nights in all) an intent may describe."""
