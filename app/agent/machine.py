"""The planning agent: one handler per state, one bounded driver loop over `TRANSITIONS`.

Every step is timed, logged as one structured line, counted, and kept in the run's trace; a
state that raises is visible in both and leads to FALLBACK (or ends the run with a clear
answer when FALLBACK itself raised). The bound is checked before every step, LLM_TOOLS's
included: tool mode is a `ToolMode` given to the agent (app/tools/runner.py), whose `step`
is that state's handler.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from app.agent import party_notes, texts
from app.agent.fallback import (
    Relaxation,
    chain_follow_legs,
    explain,
    hub_follow_legs,
    next_relaxation,
    overnight_follow_legs,
)
from app.agent.fetch import (
    TicketSearch,
    TransferSearch,
    fetch_legs,
    fetch_transfers,
    leg_queries,
    merge_sources,
    merged_result,
    town_places,
    transfer_leg_results,
    unpriced_legs,
)
from app.agent.flexible import best_day_key, day_candidates
from app.agent.hygiene import traveller_warnings
from app.agent.improve import STAGES as IMPROVE_STAGES
from app.agent.improve import TIME_STAGES, next_improvement, segment_minutes
from app.agent.model import (
    AgentInfo,
    AgentInput,
    AgentMode,
    PlanReply,
    Run,
    StepObserver,
    TraceStep,
)
from app.agent.named_train import (
    StopSearch,
    fill_route,
    missed_stops,
    needs_route,
    rides_named_train,
    route_cities,
    run_started,
    unknown_train_only,
)
from app.agent.presale import first_opening, not_on_sale_yet
from app.agent.readback import Relaxed, relaxed_items, relaxed_sentence, understood
from app.agent.states import State, check_transition
from app.agent.summary import header, plan_summary, train_numbers_in
from app.agent.trip import TripProblem, trip_request
from app.agent.which_station import (
    MAX_CANDIDATES,
    OpenName,
    Remembered,
    open_name,
    taken,
    with_trains,
)
from app.errors import Overloaded
from app.intent import texts as intent_texts
from app.intent.followup import read_turn, turn_text
from app.intent.model import TimeWindow, TravelIntent, missing_fields
from app.intent.places import (
    NO_SERVICE_PLACES,
    NON_STATION_PLACES,
    SCANT_STATION_PLACES,
    answer_to_suggestion,
    nearest_stations,
)
from app.observability.metrics import Metrics
from app.tickets.model import TicketResult
from rules import (
    Failure,
    Itinerary,
    LegKey,
    LegOffers,
    PlanResult,
    TripRequest,
    check_train_numbers,
    plan,
    required_legs,
    validate,
)
from rules.hubs import Topology
from rules.legs import stay_follow_legs, via_follow_legs
from rules.schedule import Schedule
from rules.validate import OfferIndex
from sources.base import Clock, shanghai_now
from sources.models import SHANGHAI, TrainOffer, normalise_train_number, worst_freshness
from sources.sale_window import in_sale_window, last_sale_day
from sources.stations import Place, StationDirectory, UnknownStationError

EXECUTION_STATES = frozenset({State.QUERY_TICKETS, State.EVALUATE_OPTIONS})
"""States that carry out a decision rather than take one: not counted by the step bound."""

log = logging.getLogger("railtrip.agent")

Handler = Callable[[Run], Awaitable[State]]

HUB_STAGES = ("transfer", "hubs", "more_hubs")
"""Stages that search for transfers (the official search, then the own hub search)."""

MAX_LEG_QUERIES = 24
MAX_IMPROVE_QUERIES = 6
"""Of it, what the search for a better plan than one found may spend (`app.agent.improve`):
the legs of the timetable's best journey, twice over for a two-change one (a train sold out
on the first asking sends the search to the next best)."""
FLEXIBLE_QUERIES = 16
"""Leg queries a flexible day ("哪天都行") may spend on its candidate days; the rest of the
budget stays for the fallback's searches."""
"""The upstream budget of one plan: ticket queries (each asks every source) per request."""


class ToolMode(Protocol):
    """The model-chosen read-only tools of `RAILTRIP_AGENT_MODE=llm_tools`: the LLM_TOOLS
    handler, one model request per step, returning LLM_TOOLS to go on or QUERY_TICKETS once
    the model is done (or failed, or the bound leaves no room for another request)."""

    async def step(self, agent: PlanningAgent, run: Run) -> State: ...


class PlanningAgent:
    """Turns one turn (text or intent, plus the conversation so far) into a `PlanReply`."""

    def __init__(
        self,
        *,
        parser: Any,
        tickets: TicketSearch,
        directory: StationDirectory,
        metrics: Metrics,
        max_steps: int = 10,
        clock: Clock = shanghai_now,
        monotonic: Callable[[], float] = time.monotonic,
        tool_mode: ToolMode | None = None,
        deadline_s: float | None = None,
        topology: Topology | None = None,
        transfer_search: TransferSearch | None = None,
        stop_lists: StopSearch | None = None,
        schedule: Schedule | None = None,
    ) -> None:
        self.parser = parser
        self.tickets = tickets
        self.directory = directory
        self.metrics = metrics
        self.max_steps = max_steps
        self.clock = clock
        self.monotonic = monotonic
        self.tool_mode = tool_mode
        self.deadline_s = deadline_s
        self.topology = topology
        self.transfer_search = transfer_search
        self.stop_lists = stop_lists
        self.schedule = schedule
        self._handlers: dict[State, Handler] = {
            State.PARSE_INTENT: self._parse_intent,
            State.CLARIFY: self._clarify,
            State.LLM_TOOLS: self._llm_tools,
            State.QUERY_TICKETS: self._query_tickets,
            State.EVALUATE_OPTIONS: self._evaluate_options,
            State.GENERATE_PLAN: self._generate_plan,
            State.FALLBACK: self._fallback,
        }

    @property
    def mode(self) -> AgentMode:
        return "llm_tools" if self.tool_mode is not None else "state_machine"

    # -- the driver -------------------------------------------------------------------------

    async def run(self, turn: AgentInput, observer: StepObserver | None = None) -> PlanReply:
        """Run the state machine (or tool mode, when configured) to DONE or the step bound.

        `observer`, when given, hears of every step as it is recorded (the SSE stream).
        """
        run = Run(input=turn, mode=self.mode, observer=observer)
        state = State.PARSE_INTENT
        steps = 0
        ends = None if self.deadline_s is None else self.monotonic() + self.deadline_s
        # The bound counts decisions (what was asked, what to relax next, the answer), not
        # the fetching and evaluating each decision sets off: a long but converging search
        # (transfer, another hub, other days, relaxations) is never cut short.
        executions = 0
        while state is not State.DONE:
            if steps - executions >= self.max_steps:
                self._stop_at_bound(run, steps - executions)
                break
            if ends is not None and state is State.QUERY_TICKETS and self.monotonic() >= ends:
                if run.tried and run.tried[-1] in IMPROVE_STAGES:
                    # A plan exists and the search was only trying to beat it: plan with
                    # what was fetched, and search no further.
                    run.improve_stopped = True
                    run.hub_segments = run.official_segments = ()
                    state = State.EVALUATE_OPTIONS
                    continue
                # Only states that cost upstream queries are refused: what was fetched is used.
                self._stop_at_deadline(run, state)
                break
            steps += 1
            executions += state in EXECUTION_STATES
            run.decisions = steps - executions
            state = await self._step(run, state, steps)
        self.metrics.agent_steps.labels(mode=run.mode).observe(steps)
        refusal = self._overload_refusal(run)
        if refusal is not None:
            raise refusal
        return self._reply(run, steps)

    @staticmethod
    def _overload_refusal(run: Run) -> Overloaded | None:
        """No plan, and one of the trip's own legs was refused by our queue: refuse it all
        (503 overloaded) rather than blame the sources; a plan made anyway is answered."""
        if run.itineraries or not run.refused or run.original is None:
            return None
        for key in required_legs(run.original):
            result = run.results.get(key)
            if result is not None and any(s.status == "overloaded" for s in result.sources):
                return max(run.refused, key=lambda exc: exc.retry_after_s)
        return None

    async def _step(self, run: Run, state: State, number: int) -> State:
        """Run one state: time it, log it, count it, trace it; errors become FALLBACK."""
        self.metrics.agent_state.labels(state=state.value).inc()
        run.detail = ""
        run.step_error = None
        started = self.monotonic()
        error: str | None = None
        try:
            target = await self._handlers[state](run)
            check_transition(state, target)
        except Overloaded:
            raise  # refused at once with 503 overloaded (the router's error handler)
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
            log.exception("agent state raised", extra={"agent_state": state.value, "step": number})
            run.last_error = state.value
            target = State.FALLBACK if state is not State.FALLBACK else State.DONE
            if target is State.DONE:
                run.summary = texts.INTERNAL_ERROR.format(state=state.value)
                run.itineraries = []
        ms = round((self.monotonic() - started) * 1000, 2)
        self._record(
            run, state.value, target.value, ms, run.detail, error or run.step_error, number
        )
        return target

    def _record(
        self,
        run: Run,
        state: str,
        target: str,
        ms: float,
        detail: str,
        error: str | None,
        number: int,
    ) -> None:
        """Trace and log one step."""
        step = TraceStep(step=number, state=state, next=target, ms=ms, detail=detail, error=error)
        run.trace.append(step)
        if run.observer is not None:
            run.observer(run, step)
        log.info(
            "agent step",
            extra={
                "agent_mode": run.mode,
                "step": number,
                "agent_state": state,
                "next_state": target,
                "duration_ms": ms,
                "detail": detail,
                "error": error,
            },
        )

    def _stop_at_bound(self, run: Run, decisions: int) -> None:
        """End a run at the bound, saying what was found so far; counted as a degradation."""
        run.itineraries = []
        found = texts.STEP_BOUND.format(
            steps=decisions,
            legs=len(run.results),
            offers=sum(len(r.offers) for r in run.results.values()),
        )
        text = found
        if run.original is not None:
            text += explain(
                header=header(run.original),
                original=run.original,
                failures=run.plan.failures if run.plan else (),
                tried=run.tried,
                hubs_tried=run.hubs_fetched,
                unavailable=[],
                hubs=run.hubs_tried,
                middles=run.middles_tried,
            )
        run.summary = text
        run.warn(found)
        self.metrics.degradations.labels(kind="step_bound").inc()
        log.warning("agent step bound hit", extra={"agent_mode": run.mode, "step": decisions})

    def _stop_at_deadline(self, run: Run, state: State) -> None:
        """Out of time: answer with what was found so far (a plan only if one was made)."""
        assert self.deadline_s is not None
        text = texts.PLAN_DEADLINE.format(seconds=self.deadline_s)
        if not run.itineraries:
            run.summary = text
        run.warn(text)
        log.warning("plan deadline hit", extra={"agent_mode": run.mode, "agent_state": state.value})

    # -- states -----------------------------------------------------------------------------

    async def _parse_intent(self, run: Run) -> State:
        turn = run.input
        if turn.intent is not None:
            outcome = self.parser.finish(turn.intent, turn.text or "", "rules")
        elif turn.previous is not None:
            # A follow-up is read as a change to the trip: first as the parser should see it.
            outcome = await self.parser.parse(turn_text(turn.text or ""), turn.today)
        else:
            outcome = await self.parser.parse(turn.text or "", turn.today)
        for warning in outcome.warnings:
            run.warn(warning)
        run.parsed_by = outcome.parser
        intent = outcome.intent
        question = outcome.clarify_question
        if intent.kind == "out_of_scope" and turn.previous is None:
            run.intent = intent
            run.summary = outcome.message or intent_texts.refusal("other")
            run.detail = "out_of_scope"
            return State.DONE
        answered = None
        if turn.previous is not None:
            answered = answer_to_suggestion(turn.previous, turn.text or "", self.directory)
        if answered is not None:
            # "是武汉" after "您是指武汉吗？": that place, and the rest of the trip kept.
            intent = answered
            question = _question_for(intent, self.directory)
        elif turn.previous is not None:
            calls_at = None
            if self.stop_lists is not None and rides_named_train(turn.previous, intent):
                # The train's stop list (cached: the turn before read it) says whether the
                # ride the turn names is the train's.
                calls_at = await route_cities(self.stop_lists, turn.previous, self._city)
            reading = read_turn(
                turn.previous,
                intent,
                turn.text or "",
                today=turn.today,
                city=self._city,
                suggest=self._suggested,
                route=None if calls_at is None else calls_at.cities,
            )
            if reading.declined is not None:
                # A question beside the trip: declined, and the trip stays as it was.
                run.intent = turn.previous
                run.summary = intent_texts.refusal(reading.declined)
                if reading.declined == "other" and outcome.message:
                    run.summary = outcome.message
                run.detail = "out_of_scope"
                return State.DONE
            # Only this turn's own question can be answered next (not one asked before).
            intent = reading.intent.model_copy(
                update={"suggested_places": outcome.intent.suggested_places}
            )
            offered = _offer_taken(turn.previous, intent, turn.text or "")
            if offered is not None:
                intent = offered
                assert intent.destination_text is not None and intent.destination is not None
                run.warn(
                    intent_texts.planned_at_nearest(intent.destination_text, intent.destination)
                )
            if calls_at is not None:
                started = run_started(turn.previous, outcome.intent, intent, calls_at, self._city)
                if started is not None and intent.date_start is not None:
                    run.warn(
                        texts.NAMED_TRAIN_RUN_STARTED.format(
                            train=normalise_train_number(intent.train_numbers[0]),
                            station=intent.origin,
                            day=texts.day_label(intent.date_start),
                            start=texts.day_label(started),
                            first=calls_at.cities[0],
                        )
                    )
            question = _question_for(intent, self.directory)
            if outcome.which_day is not None:
                question = outcome.which_day  # 改成12月17号周五 (a Thursday): which is meant
            elif reading.ask_first:
                question = reading.question  # 回程也订: which day back, before planning
            elif reading.question:
                run.warn(reading.question)  # said beside the plan of what is known
        open_end = open_name(intent, outcome.which_station, self.directory)
        if open_end is not None:
            settled = await self._settle(run, intent, open_end)
            if settled is not None:
                intent = settled
                if turn.previous is None:
                    again = self.parser.finish(intent, turn.text or "", outcome.parser)
                    for warning in again.warnings:
                        run.warn(warning)
                    question = again.clarify_question
                else:
                    question = _question_for(intent, self.directory)
        nearer = await self._nearest_with_trains(run, intent)
        if nearer is not None:
            intent = nearer
        if unknown_train_only(intent):
            # "G99999 明天还有票吗": no such number, and nothing else to plan from.
            run.intent = intent
            run.summary = texts.NAMED_TRAIN_INVALID.format(train=intent.invalid_train_numbers[0])
            run.detail = "invalid train number"
            return State.DONE
        if self.stop_lists is not None and needs_route(intent):
            route = await fill_route(self.stop_lists, intent)
            if route.unknown is not None:
                run.intent = intent
                assert intent.date_start is not None
                run.summary = texts.NAMED_TRAIN_UNKNOWN.format(
                    train=route.unknown, date=texts.day_label(intent.date_start)
                )
                run.detail = f"unknown train {route.unknown}"
                return State.DONE
            if route.intent is not intent:
                intent = route.intent
                question = _question_for(intent, self.directory)
            if route.note:
                run.warn(route.note)
            run.named_train_no = route.train_no
        run.intent = intent
        if question:
            run.clarify_question = question
            run.detail = "missing: " + ",".join(intent.missing)
            return State.CLARIFY
        try:
            request = trip_request(
                intent,
                self.directory,
                today=turn.sale_today,
                warnings=run.warnings,
            )
        except TripProblem as problem:
            run.clarify_question = problem.question
            run.detail = "trip problem"
            return State.CLARIFY
        run.request = run.original = request
        run.candidates = [request]
        if intent.flexible_until is not None:  # 哪天都行: every accepted day is a candidate
            run.candidates = day_candidates(
                request, intent.flexible_until, turn.sale_today, FLEXIBLE_QUERIES
            )
            run.flexible = len(run.candidates) > 1
        run.wanted_legs = list(dict.fromkeys(k for c in run.candidates for k in required_legs(c)))
        run.detail = f"{request.origin}→{request.destination} {request.depart_date}"
        # Tool mode takes over once the intent is understood; it shares the bound.
        return State.LLM_TOOLS if run.mode == "llm_tools" else State.QUERY_TICKETS

    async def _llm_tools(self, run: Run) -> State:
        assert self.tool_mode is not None
        return await self.tool_mode.step(self, run)

    async def _clarify(self, run: Run) -> State:
        run.summary = run.clarify_question or intent_texts.ASK_ORIGIN
        return State.DONE

    async def _query_tickets(self, run: Run) -> State:
        missing = self.budgeted(run, run.wanted_legs)
        run.results.update(await self._fetch(run, missing))
        if run.wanted_asks:
            missing += await self._fetch_asks(run, run.wanted_asks)
            run.wanted_asks = []
        official = ""
        if run.official_segments and run.original is not None:
            segments = len(run.official_segments)
            missing += await self._official_transfers(run, run.original)
            official = f"transfer search {segments} segments, {len(run.middles_tried)} middles; "
        if run.hub_segments and run.original is not None:
            # Phase 2 of the hub search, within the same step: only hubs the probe found.
            follow = []
            if run.hub_probe:
                follow = hub_follow_legs(
                    run.original,
                    list(run.hub_segments),
                    {k: len(r.offers) for k, r in run.results.items()},
                )
                follow = self.budgeted(run, follow)
                run.results.update(await self._fetch(run, follow))
            overnight = overnight_follow_legs(
                run.original,
                list(run.hub_segments),
                {k: r.offers for k, r in run.results.items()},
            )
            overnight = self.budgeted(run, overnight)
            run.results.update(await self._fetch(run, overnight))
            missing += follow + overnight
            for _ in range(3):  # a chain of changes: the middle hop, the last, a stop's day
                chained = chain_follow_legs(
                    run.original,
                    list(run.hub_segments),
                    {k: r.offers for k, r in run.results.items()},
                )
                chained = self.budgeted(run, chained)
                if not chained:
                    break
                run.results.update(await self._fetch(run, chained))
                missing += chained
            run.hub_segments = ()
        missing += await self._stay_follow(run)
        fresh = [run.results[k].freshness for k in missing]
        run.detail = (
            official
            + f"{len(missing)} legs: "
            + ",".join(
                f"{f}={fresh.count(f)}" for f in ("realtime", "cached", "unavailable") if f in fresh
            )
        )
        return State.EVALUATE_OPTIONS

    async def _stay_follow(self, run: Run) -> list[LegKey]:
        """The rides home a night train out calls for (`stay_follow_legs`: 住三晚 counted
        from the day it arrives), and the ride on from a stop on the way reached by one
        (`via_follow_legs`), on sale days only."""
        offers = {k: r.offers for k, r in run.results.items()}
        last = last_sale_day(run.input.sale_today)
        wanted = [
            key
            for candidate in run.candidates
            for key in (*stay_follow_legs(candidate, offers), *via_follow_legs(candidate, offers))
            if key.date <= last
        ]
        follow = self.budgeted(run, wanted)
        run.results.update(await self._fetch(run, follow))
        return follow

    async def _official_transfers(self, run: Run, original: TripRequest) -> list[LegKey]:
        """Ask the sources' own transfer search once per failing segment (one page each);
        its halves join the book, and a half without fares is priced by its leg query."""
        assert self.transfer_search is not None
        keys = required_legs(original)
        # A town keyed as its own place (苏州→昆山) is no city the transfer search knows.
        towns = {town.name for town in original.towns}
        segments = [
            keys[i]
            for i in run.official_segments
            if 0 <= i < len(keys) and not {keys[i].origin, keys[i].destination} & towns
        ]
        run.official_segments = ()
        asked = self.budgeted(run, segments, transfer=True)
        answers = await fetch_transfers(self.transfer_search, self.directory, asked)
        legs = transfer_leg_results(answers.values(), self.directory)
        run.transfer_legs.update(legs)
        middles = [
            plan.middle_station.city for answer in answers.values() for plan in answer.offers
        ]
        run.middles_tried = tuple(dict.fromkeys((*run.middles_tried, *middles)))
        priced = self.budgeted(run, unpriced_legs(legs))
        run.results.update(await self._fetch(run, priced))
        return priced

    async def _evaluate_options(self, run: Run) -> State:
        if not run.trains_checked:
            await self._check_named_trains(run)
        book = run.book()
        now = self.now(run)
        best = None
        order = run.intent.order if run.intent is not None else None
        for candidate in run.candidates:
            result = plan(candidate, book, now=now, limit=3)
            if run.plan is None:
                run.plan = result
            if not result.itineraries:
                continue
            if run.tried and run.tried[-1] == "day_before":
                # The deadline's own morning (overnight) before any hour of the day before.
                best = (candidate, result)
                break
            if run.flexible:  # the best accepted day by the stated order
                better = best is None or _day_rank(order, candidate, result) < _day_rank(
                    order, *best
                )
            else:
                better = (
                    best is None
                    or result.itineraries[0].score.total < best[1].itineraries[0].score.total
                )
            if better:
                best = (candidate, result)
        if best is None:
            run.detail = "no itinerary"
            run.flexible = False  # the fallback relaxes the first accepted day, said openly
            return State.FALLBACK
        run.request, run.plan = best
        if run.flexible:
            # The traveller accepted this day: it is the trip asked for, not a relaxation.
            run.original = run.request
            run.flexible = False
            run.warn(texts.FLEXIBLE_DAY.format(day=texts.day_label(run.request.depart_date)))
        run.detail = f"{len(best[1].itineraries)} itineraries"
        if best[0] is run.original and not run.improve_stopped:
            # Search on while a change of trains could still beat the plan (`improve`).
            run.improvement = next_improvement(
                request=best[0],
                best=best[1].itineraries[0],
                schedule=self.schedule,
                tried=run.tried,
                official_search=self._official_search,
                asked=asked_in_full(run),
                now=now,
                pairs=run.asked_pairs,
                seen=book,
                budget=min(
                    MAX_IMPROVE_QUERIES - run.improve_queries, MAX_LEG_QUERIES - run.queries
                ),
            )
            if run.improvement is not None:
                run.detail += f"; {run.improvement.stage}"
                return State.FALLBACK
        return State.GENERATE_PLAN

    @property
    def _official_search(self) -> bool:
        return self.transfer_search is not None and self.transfer_search.available

    async def _generate_plan(self, run: Run) -> State:
        assert run.plan is not None and run.request is not None and run.original is not None
        index = OfferIndex(o for r in run.answers().values() for o in r.offers)
        valid = [
            it
            for it in run.plan.itineraries
            if not validate(it, index, allow_waitlist=run.request.allow_waitlist)
        ]
        if not valid:
            run.detail = "validation rejected every itinerary"
            return State.FALLBACK
        run.itineraries = valid
        best = valid[0]
        summary = plan_summary(run.request, best, valid[1:])
        unknown = set(train_numbers_in(summary)) - set(best.train_numbers)
        if unknown:  # the templates only print the itinerary's trains; anything else is a bug
            raise RuntimeError(f"summary names trains outside the itinerary: {sorted(unknown)}")
        notes = []
        run.relaxed_items = relaxed_items(run.original, run.request, best)
        nearest = self._nearest_given_up(run)
        if nearest is not None:
            # 宏村 planned at its one nearest station (黟县东), which sold nothing that fits:
            # another station of the prefecture is no answer to "宏村"; the traveller chooses.
            run.clarify_question = run.summary = nearest
            run.itineraries = []
            run.relaxed_items = []
            run.detail = "nearest station unserved"
            return State.DONE
        if run.instead_of is not None and run.intent is not None:
            run.relaxed_items.append(
                Relaxed(
                    constraint="destination",
                    requested=run.instead_of,
                    offered=run.intent.destination or "",
                    reason=(
                        texts.INSTEAD_NEAR_REASON.format(
                            asked=run.instead_of,
                            place=run.intent.destination,
                            near=run.instead_near,
                        )
                        if run.instead_near
                        else texts.INSTEAD_REASON.format(
                            asked=run.instead_of, place=run.intent.destination
                        )
                    ),
                )
            )
        if run.absent_trains:
            run.relaxed_items.append(
                Relaxed(
                    constraint="train_numbers",
                    requested="、".join(run.absent_trains),
                    offered="、".join(best.train_numbers),
                    reason="；".join(
                        dict.fromkeys(
                            run.absent_reasons.get(n) or texts.TRAIN_ABSENT_REASON.format(trains=n)
                            for n in run.absent_trains
                        )
                    ),
                )
            )
        unusable = [n for n in run.original.required_trains if n not in best.train_numbers]
        missed = unusable or run.absent_trains
        if missed and run.intent is not None and "只此车次" in run.intent.preferences:
            # G394 二等座有木有 木有就算了: that train or none; no other is planned instead.
            run.summary = texts.NAMED_TRAIN_ONLY.format(
                day=texts.day_label(run.original.depart_date), trains="、".join(missed)
            )
            run.itineraries = []
            run.relaxed_items = []
            run.detail = "named train only, none usable"
            return State.DONE
        if unusable:
            # G7 is on sale but has no seat the traveller can have (一等座 on waitlist only):
            # another train is planned, and that is a relaxation of the named train.
            run.relaxed_items.append(
                Relaxed(
                    constraint="train_numbers",
                    requested="、".join(unusable),
                    offered="、".join(best.train_numbers),
                    reason=texts.TRAIN_UNUSABLE_REASON.format(trains="、".join(unusable)),
                )
            )
        deadline = run.original.arrive_window
        if (
            run.request.depart_date < run.original.depart_date
            and deadline is not None
            and run.original.arrive_date is not None
            and "day_before" in run.tried
        ):
            # 十点前必须到 with no train of the day in time: left the day before, not late.
            notes.append(
                texts.DAY_BEFORE.format(
                    day=texts.day_label(run.original.arrive_date),
                    deadline=f"{deadline[1]:%H:%M}",
                    chosen=texts.day_label(run.request.depart_date),
                )
            )
        elif run.request.depart_date != run.original.depart_date:
            notes.append(
                texts.SHIFTED_DAY.format(
                    wanted=texts.day_label(run.original.depart_date),
                    chosen=texts.day_label(run.request.depart_date),
                )
            )
        lifted = (run.request.night_lifted, run.request.return_night_lifted)
        if any(lifted):
            # The night default gave way (no stated wish did): said, so a 04:04 seat is no surprise.
            ride = {(True, False): "out", (False, True): "home"}.get(lifted, "both")
            notes.append(texts.NIGHT_LIFTED.format(ride=texts.NIGHT_RIDES[ride]))
        # SHIFTED_DAY says the date; a missing named train is said in the warnings, since the
        # summary names only the itinerary's own trains.
        said = [r for r in run.relaxed_items if r.constraint not in ("date_start", "train_numbers")]
        notes.append(relaxed_sentence(said))
        if len(best.legs) > len(required_legs(run.request)) and "transfer" in run.tried:
            # "没有直达车次" only when the direct query really found none
            direct = [run.results.get(k) for k in required_legs(run.request)]
            none_direct = all(r is not None and not r.offers for r in direct)
            notes.append(texts.VIA_TRANSFER if none_direct else texts.VIA_TRANSFER_UNFIT)
        faster = self._faster_by_change(run, best)
        if faster:
            notes.append(faster)
        run.summary = "".join(notes) + summary
        if run.intent is not None:
            run.summary += party_notes.fare_note(run.intent) + party_notes.berth_note(run.intent)
        if run.llm_text is not None:
            self._use_model_text(run)
        for note in run.plan.notes:
            run.warn(note)
        if worst_freshness([leg.freshness for leg in best.legs]) != "realtime":
            run.warn(texts.CACHED_PLAN)
        run.detail = "→".join(best.train_numbers)
        return State.DONE

    @staticmethod
    def _faster_by_change(run: Run, best: Itinerary) -> str:
        """ "直达需63小时，中转一次22小时38分" when the search went on past a direct train
        (`improve`) and a change won."""
        if not any(stage in TIME_STAGES for stage in run.tried) or run.request is None:
            return ""
        found = segment_minutes(best, 0)
        key = required_legs(run.request)[0]
        direct = run.results.get(key)
        if found is None or not found[1] or direct is None or not direct.offers:
            return ""
        minutes, changes = found
        quickest = min(o.duration_min for o in direct.offers)
        if quickest <= minutes:
            return ""  # the quicker direct trains could not be had: not a "faster" claim
        return texts.FASTER_BY_CHANGE.format(
            direct=texts.duration_label(quickest),
            changes=texts.CHANGES.get(changes, f"{changes}次"),
            via=texts.duration_label(minutes),
        )

    async def _fallback(self, run: Run) -> State:
        if run.last_error is not None:
            run.summary = texts.INTERNAL_ERROR.format(state=run.last_error)
            run.warn(run.summary)
            return State.DONE
        original = run.original
        if original is None:
            run.summary = texts.INTERNAL_ERROR.format(state="PARSE_INTENT")
            return State.DONE
        relaxation: Relaxation | None = run.improvement
        run.improvement = None
        if relaxation is not None:
            return self._start(run, relaxation)
        if not run.tried and (instead := self._instead(run)) is not None:
            return instead
        failures = run.first_failures or (run.plan.failures if run.plan else ())
        run.first_failures = failures
        unavailable = self._unavailable(run, original)
        presale = self._presale_not_open(run, original, failures)
        if presale is not None and (outward := self._outward_only(run, original, failures)):
            # The ride out is on sale, the ride home's day not yet: the ride out is planned
            # and the reply says the return opens later (as for a return past the window).
            return self._start(run, Relaxation("unsold_return", (outward,), (), needs_query=False))
        if presale is not None:
            # The day asked is not on sale yet: said, never swapped for a day not asked for;
            # the reply asks whether to wait for the opening or take another day.
            run.clarify_question = run.summary = presale
            run.detail = "presale not open"
            return State.DONE
        if not unavailable:
            relaxation = next_relaxation(
                original=original,
                failures=failures,
                tried=run.tried,
                today=run.input.sale_today,
                last_sale_day=last_sale_day(run.input.sale_today),
                hub_offers={k: len(r.offers) for k, r in run.results.items()},
                topology=self.topology,
                hubs_tried=run.hubs_tried,
                book=run.book(),
                now=self.now(run),
                official_search=self._official_search,
                schedule=self.schedule,
                asked=asked_in_full(run),
                pairs=run.asked_pairs,
            )
        if relaxation is None and (asked := self._no_service(run, original)) is not None:
            # 香格里拉's station sold nothing that day: offer the nearest served one.
            run.clarify_question = run.summary = asked
            run.detail = "no service"
            return State.DONE
        if relaxation is None:
            run.summary = explain(
                header=header(original),
                original=original,
                failures=failures,
                tried=run.tried,
                hubs_tried=run.hubs_fetched,
                unavailable=unavailable,
                hubs=run.hubs_tried,
                middles=run.middles_tried,
            )
            if run.instead_of is not None:
                # 黄龙九寨 then 松潘 for 九寨沟: both said, the first one asked included.
                run.summary = (
                    texts.INSTEAD_ALSO_FAILED.format(
                        asked=run.instead_of,
                        place=original.destination_station or original.destination,
                    )
                    + run.summary
                )
            run.detail = "stop"
            return State.DONE
        return self._start(run, relaxation)

    def _instead(self, run: Run) -> State | None:
        """The trip to the place said to do instead (没直达固始的话到信阳也行) when the
        destination asked finds nothing as asked: the traveller's own alternative comes before
        any wish relaxed, a change of trains or another day. None when there is none."""
        intent = run.intent
        if intent is None or not intent.destination_alternatives or run.flexible:
            return None
        moved = intent.model_copy(
            update={
                "destination": intent.destination_alternatives[0],
                "destination_alternatives": [],
                "destination_text": None,
            }
        )
        try:
            request = trip_request(
                moved, self.directory, today=run.input.sale_today, warnings=run.warnings
            )
        except TripProblem:
            return None
        run.instead_of = intent.destination
        # 土楼: 永定 and 南靖 both near it, neither said by the traveller as "also fine".
        run.instead_near = intent.destination_text
        run.intent = moved
        run.request = run.original = request
        run.candidates = [request]
        run.plan = None
        run.first_failures = ()
        run.wanted_legs = list(required_legs(request))
        run.detail = f"instead: {request.origin}→{request.destination}"
        return State.QUERY_TICKETS

    @staticmethod
    def _start(run: Run, relaxation: Relaxation) -> State:
        """Set off the next search stage: its candidates, and the legs it needs."""
        run.tried.append(relaxation.stage)
        run.hubs_fetched |= relaxation.stage in HUB_STAGES and not relaxation.official
        run.hub_segments = () if relaxation.official else relaxation.hub_segments
        run.official_segments = relaxation.hub_segments if relaxation.official else ()
        run.hub_probe = relaxation.probe
        run.hubs_tried = tuple(dict.fromkeys((*run.hubs_tried, *relaxation.hubs)))
        run.candidates = list(relaxation.candidates)
        run.plan = None
        run.detail = relaxation.stage
        if relaxation.needs_query:
            run.wanted_legs = list(relaxation.legs)
            run.wanted_asks = list(relaxation.asks)
            return State.QUERY_TICKETS
        return State.EVALUATE_OPTIONS

    async def _fetch(self, run: Run, keys: list[LegKey]) -> dict[LegKey, TicketResult]:
        places = named_places(run, self.directory)
        for key in keys:
            asked = run.asked_pairs.setdefault(key, set())
            asked.update(
                (q.query.origin, q.query.destination)
                for q in leg_queries(self.directory, key, places)
            )
        tickets = Remembered(self.tickets, run.answered) if run.answered else self.tickets
        towns = run.original.towns if run.original is not None else ()
        return await fetch_legs(tickets, self.directory, keys, run.refused, places, towns=towns)

    async def _fetch_asks(self, run: Run, asks: list[tuple[LegKey, str, str]]) -> list[LegKey]:
        """Ask legs by two of their stations (`fetch.station_query`), within the budget;
        an answer joins what the leg's earlier queries said."""
        wanted = [
            (key, board, alight)
            for key, board, alight in dict.fromkeys(asks)
            if (board, alight) not in run.asked_pairs.get(key, ())
        ]
        # One query per leg and answer: a leg asked by two pairs is asked in two rounds.
        first: dict[LegKey, tuple[str, str]] = {}
        for key, board, alight in wanted:
            first.setdefault(key, (board, alight))
        keys = self.budgeted(run, list(first), fetched=False)
        if not keys:
            return []
        for key in keys:
            run.asked_pairs.setdefault(key, set()).add(first[key])
        found = await fetch_legs(
            self.tickets,
            self.directory,
            keys,
            run.refused,
            named_places(run, self.directory),
            stations={key: first[key] for key in keys},
            towns=run.original.towns if run.original is not None else (),
            # The legs of the timetable's best journey: its trains are known, and one
            # source's answer confirms their seats and fares.
            one_source=True,
        )
        for key, result in found.items():
            known = run.results.get(key)
            run.results[key] = result if known is None else merged_result([known, result])
        return keys

    @staticmethod
    def budgeted(
        run: Run, keys: list[LegKey], *, transfer: bool = False, fetched: bool = True
    ) -> list[LegKey]:
        """The keys not fetched yet, within the run's upstream budget (the rest is said).

        `transfer`: the keys are asked of the transfer search (one call each, counted in
        the same budget) rather than of the leg query; `fetched=False`: asked again (by
        other stations) even when fetched.
        """
        fetched_keys = run.results if fetched and not transfer else ()
        wanted = [key for key in dict.fromkeys(keys) if key not in fetched_keys]
        if run.tried and run.tried[-1] in IMPROVE_STAGES:
            # A plan exists: beating it is worth a few queries, never the whole budget.
            wanted = wanted[: max(0, MAX_IMPROVE_QUERIES - run.improve_queries)]
            run.improve_queries += len(wanted)
        left = max(0, MAX_LEG_QUERIES - run.queries)
        if len(wanted) > left:
            run.warn(texts.QUERY_BUDGET.format(n=MAX_LEG_QUERIES))
            log.warning("plan query budget hit", extra={"agent_mode": run.mode})
            wanted = wanted[:left]
        run.queries += len(wanted)
        return wanted

    # -- helpers ----------------------------------------------------------------------------

    async def _settle(self, run: Run, intent: Any, open_end: OpenName) -> Any | None:
        """The intent with its open end set to the only candidate station with trains to or
        from the other end (`which_station`), said in the warnings; None when the trains do
        not tell (the traveller is asked). Each candidate's query counts in the budget."""
        run.queries += len(open_end.stations)
        day = intent.date_start
        if day is None or not in_sale_window(day, run.input.sale_today):
            # No day, or one not on sale yet: the next day's trains stand for the route's.
            day = run.input.sale_today + dt.timedelta(days=1)
        kept = await with_trains(self.tickets, self.directory, open_end, day, run.answered)
        run.detail = f"{open_end.typed}: {'/'.join(kept) or '-'} of {'/'.join(open_end.stations)}"
        if len(kept) != 1:
            return None
        station = kept[0]
        end = (
            texts.STATION_BY_TRIP_FROM
            if open_end.slot == "destination"
            else texts.STATION_BY_TRIP_TO
        )
        run.warn(
            texts.STATION_BY_TRIP.format(
                place=open_end.typed,
                names="、".join(open_end.stations),
                end=end.format(other=open_end.other),
                station=station,
            )
        )
        return taken(intent, open_end, station)

    async def _nearest_with_trains(self, run: Run, intent: Any) -> Any | None:
        """The intent planned at the next station near a place without one (宏村: 黄山北) when
        the nearest (黟县东) has no train from the origin that day and the next has, said in
        the warnings; None when the nearest has trains, none has, or nothing is to be settled.
        At most `MAX_CANDIDATES` stations are asked, one at a time, each counted in the budget."""
        if intent.destination in SCANT_STATION_PLACES and not intent.destination_text:
            return await self._gateway_with_trains(run, intent)
        place, day = intent.destination_text, intent.date_start
        near = nearest_stations(place, self.directory) if place in NON_STATION_PLACES else []
        if len(near) < 2 or intent.destination != near[0] or not intent.origin or day is None:
            return None
        # One at a time, nearest first: the first with trains is taken and its answer is the
        # plan's own leg; none further is asked (an answer for another town of the prefecture
        # would come back to the plan's city-wide query as a cached copy).
        ends = (intent.origin, day)
        kept = await self._first_with_trains(run, place, near[:MAX_CANDIDATES], ends, None)
        if not kept or kept[0] == near[0]:
            return None
        planned = intent_texts.planned_at_nearest(place, near[0], near[1:])
        run.warnings = [w for w in run.warnings if w != planned]
        run.warn(intent_texts.planned_at_next_nearest(place, near[0], kept[0]))
        return intent.model_copy(update={"destination": kept[0]})

    async def _gateway_with_trains(self, run: Run, intent: Any) -> Any | None:
        """The intent planned at a station travellers take to a place whose own station sells
        few trains (凤凰古城: 吉首) when its own has none from the origin that day, said in the
        warnings; None when it has, or no station near it has. Asked one at a time, its own
        station first, each counted in the budget (as `_nearest_with_trains`)."""
        place, day = intent.destination, intent.date_start
        if not intent.origin or day is None:
            return None
        near = [
            name
            for name in SCANT_STATION_PLACES[place]
            if self.directory.by_name(name) is not None or name in self.directory.cities()
        ]
        stations = [place, *near][:MAX_CANDIDATES]
        # The first with a train of the kind and in the hours said (坐高铁: 怀化南, not 吉首;
        # 下班后走: the evening's trains reach 怀化南), else of the kind, else in the hours,
        # else any train; each station is asked once, the later passes read the answers kept.
        ends = (intent.origin, day)
        kept: list[str] = []
        for number, fits in enumerate(_gateway_fits(intent)):
            again = number > 0
            kept = await self._first_with_trains(run, place, stations, ends, fits, again=again)
            if kept:
                break
        if not kept or kept[0] == place:
            return None
        run.warn(intent_texts.planned_at_gateway(place, intent.origin, kept[0]))
        return intent.model_copy(update={"destination": kept[0]})

    async def _first_with_trains(
        self,
        run: Run,
        place: str,
        stations: list[str],
        ends: tuple[str, dt.date],
        fits: Callable[[TrainOffer], bool] | None,
        *,
        again: bool = False,
    ) -> list[str]:
        """The first of `stations`, asked one at a time, with a train from `ends` (the
        origin, on the day) that `fits` accepts; `again`: each was asked already, and the
        answers the run kept are read (no query counted)."""
        origin, day = ends
        tickets = Remembered(self.tickets, run.answered) if again else self.tickets
        for station in stations:
            if not again:
                run.queries += 1
            probe = OpenName("destination", place, (station,), origin)
            kept = await with_trains(tickets, self.directory, probe, day, run.answered, fits=fits)
            if kept:
                return kept
        return []

    def _suggested(self, name: str) -> str | None:
        """The place a reply offers for a name it does not know, as the parser asks it."""
        if name in NON_STATION_PLACES:
            return None
        found = self.directory.suggest(name, limit=1)
        return found[0] if found else None

    def _nearest_given_up(self, run: Run) -> str | None:
        """The question naming a place's nearest stations when the plan gave up the one
        station the place was planned at (a place without a station, `NON_STATION_PLACES`),
        else None."""
        intent = run.intent
        if intent is None or not intent.destination_text or intent.destination is None:
            return None
        place = intent.destination_text
        near = nearest_stations(place, self.directory) if place in NON_STATION_PLACES else []
        if intent.destination not in near:
            return None
        if not any(item.constraint == "destination" for item in run.relaxed_items):
            return None
        planned = {
            intent_texts.planned_at_nearest(place, near[0], near[1:]),
            intent_texts.planned_at_next_nearest(place, near[0], intent.destination),
        }
        run.warnings = [w for w in run.warnings if w not in planned]
        return intent_texts.nearest_unserved(intent.destination_text, intent.destination)

    def _no_service(self, run: Run, original: TripRequest) -> str | None:
        """The question offering the nearest served station when an end of the trip is a
        place whose station may sell no train (`NO_SERVICE_PLACES`) and its legs found none
        at all that day; None otherwise. The offer is kept for the answer (好 plans it)."""
        intent = run.intent
        if intent is None:
            return None
        keys = required_legs(original)
        for slot, other in (("destination", original.origin), ("origin", original.destination)):
            name = getattr(intent, slot)
            # Never the trip's other end (丽江到香格里拉: 丽江 is no way to 香格里拉).
            stations = [
                s
                for s in NO_SERVICE_PLACES.get(name or "", ())
                if (self.directory.by_name(s) is not None or s in self.directory.cities())
                and self._city(s) != other
            ]
            if not stations:
                continue
            city = self._city(name or "")
            touching = [k for k in keys if city in (k.origin, k.destination)]
            if touching and all(k in run.results and not run.results[k].offers for k in touching):
                run.intent = intent.model_copy(update={"suggested_places": {slot: stations[0]}})
                day = touching[0].date
                return intent_texts.no_service(name or "", texts.day_label(day), stations)
        return None

    def _city(self, name: str) -> str | None:
        """The city of a directory name (None when the directory does not know it)."""
        try:
            return self.directory.resolve(name).city
        except UnknownStationError:
            return None

    async def _renumbered(
        self, run: Run, absent: set[str], offers: list[TrainOffer], day: dt.date
    ) -> dict[str, str]:
        """A named train renumbered en route (K1512 is K1509 from 金华 to 杭州南) is sold under
        the number it carries where the ride boards: the run's id (12306's train_no) from its
        stop list finds it, and the number sold is said. One stop list at most, only for a
        named number the live results lack."""
        if not absent or not offers:
            return {}
        train_no = run.named_train_no
        if not train_no and self.stop_lists is not None:
            try:
                train_no = (await self.stop_lists.stops(sorted(absent)[0], day)).train_no
            except Exception as exc:  # no stop list: the number is said as not found
                log.info("stop list for a renumbered train failed", extra={"error": repr(exc)})
                return {}
        if not train_no:
            return {}
        sold = next((o.train_number for o in offers if o.train_no == train_no), None)
        if sold is None:
            return {}
        found = dict.fromkeys(absent, sold)
        for number in found:
            run.warn(texts.TRAIN_SOLD_AS.format(train=number, sold=sold))
        return found

    async def _check_named_trains(self, run: Run) -> None:
        """Trains the traveller named must be in this request's live results; else say so."""
        run.trains_checked = True
        assert run.request is not None and run.intent is not None
        named = run.intent.train_numbers
        if not named:
            return
        keys = required_legs(run.request)
        # Every accepted day counts (周六或者周日都行，坐Z283): a train sold on any of them is
        # there.
        every_day = dict.fromkeys(k for c in run.candidates for k in required_legs(c))
        offers = [o for k in every_day if k in run.results for o in run.results[k].offers]
        absent = {v.train_number or "" for v in check_train_numbers(named, offers)} - {""}
        sold_as = await self._renumbered(run, absent, offers, keys[0].date)
        named = [sold_as.get(n, n) for n in named]
        absent -= set(sold_as)
        first = keys[0]
        typed = re.sub(r"\s+", "", run.input.text or "").upper()
        for number in sorted(absent):
            missed = None
            if self.stop_lists is not None:
                # 北京南坐G1到南京南: G1 runs, but not through 南京南; its stop list says so.
                ends = (first.origin, first.destination)
                intent = run.intent
                if not intent.via and intent.origin and intent.destination:
                    ends = (intent.origin, intent.destination)  # the stations as named
                missed = await missed_stops(self.stop_lists, number, first.date, ends, self._city)
            if missed is not None:
                places = "、".join(missed.places)
                route = missed.note.rstrip("。")
                run.warn(texts.TRAIN_DOES_NOT_CALL.format(train=number, places=places, route=route))
                run.absent_reasons[number] = texts.TRAIN_DOES_NOT_CALL_REASON.format(
                    train=number, places=places
                )
                continue
            # A number the traveller never typed came from the model's parse of the text.
            origin = "llm" if run.parsed_by == "llm" and number not in typed else "user"
            self.metrics.invented_trains.labels(origin=origin).inc()
            run.warn(
                texts.TRAIN_NOT_FOUND.format(
                    train=number,
                    route=texts.route_label(first.origin, first.destination),
                    date=texts.day_label(first.date),
                )
            )
        kept = tuple(n for n in named if n not in absent)
        run.candidates = [c.model_copy(update={"required_trains": kept}) for c in run.candidates]
        run.request = run.original = run.candidates[0]
        run.absent_trains = sorted(absent)

    def _use_model_text(self, run: Run) -> None:
        """The model's closing words replace the template only if every train in them is real."""
        assert run.llm_text is not None
        known = {o.train_number for r in run.answers().values() for o in r.offers}
        invented = [n for n in dict.fromkeys(train_numbers_in(run.llm_text)) if n not in known]
        if invented:
            for _ in invented:
                self.metrics.invented_trains.labels(origin="llm").inc()
            run.warn(texts.LLM_TEXT_DISCARDED)
            log.warning("model text discarded", extra={"invented": invented})
            return
        run.summary = run.llm_text

    def _presale_not_open(
        self, run: Run, original: TripRequest, failures: Sequence[Failure]
    ) -> str | None:
        """ "12月22日的车票尚未开售…" when a failing leg of the trip as asked lists trains of
        which none is on sale yet (`presale`), else None."""
        keys = required_legs(original)
        segments = [f.segment for f in failures]
        whole = None in segments
        failing = [k for i, k in enumerate(keys) if whole or i in segments]
        for key in failing:
            result = run.results.get(key)
            if result is None or not not_on_sale_yet(result.offers):
                continue
            opens = first_opening(result.offers, self.now(run))
            return texts.PRESALE_NOT_OPEN.format(
                date=texts.day_label(key.date),
                opens=texts.PRESALE_OPENS.format(
                    day=texts.day_label(opens.date()), clock=f"{opens:%H:%M}"
                )
                if opens is not None
                else "",
            )
        return None

    @staticmethod
    def _outward_only(
        run: Run, original: TripRequest, failures: Sequence[Failure]
    ) -> TripRequest | None:
        """The trip without its ride home when only the ride home's day is not on sale yet
        (元旦放三天 31号回徐州: the 31st sells, the 3rd opens later today), else None."""
        keys = required_legs(original)
        home = len(keys) - 1
        if not original.return_trip or home < 1 or "unsold_return" in run.tried:
            return None
        if any(f.segment != home for f in failures):
            return None
        result = run.results.get(keys[home])
        if result is None or not not_on_sale_yet(result.offers):
            return None
        run.warn(texts.RETURN_NOT_ON_SALE.format(date=texts.day_label(keys[home].date)))
        outward = original.model_copy(update={"return_trip": False, "return_date": None})
        run.request = run.original = outward
        return outward

    @staticmethod
    def _unavailable(run: Run, request: TripRequest) -> list[LegKey]:
        """The trip's own legs that no source (nor any cache) could answer."""
        found = []
        for key in required_legs(request):
            result = run.results.get(key)
            if result is not None and result.freshness == "unavailable" and not result.offers:
                found.append(key)
        return found

    @staticmethod
    def _results_used(run: Run, best: Itinerary | None) -> list[TicketResult]:
        """The answers the plan rests on (its legs' queries), else the trip's own legs."""
        if best is not None:
            keys = [
                LegKey(leg.origin_station.city, leg.destination_station.city, leg.depart_at.date())
                for leg in best.legs
            ]
        elif run.request is not None:
            keys = required_legs(run.request)
        else:
            keys = []
        answers = run.answers()
        used = [answers[k] for k in dict.fromkeys(keys) if k in answers]
        return used or list(answers.values())

    def now(self, run: Run) -> dt.datetime:
        midnight = dt.datetime.combine(run.input.today, dt.time(0, 0), tzinfo=SHANGHAI)
        return max(self.clock(), midnight)

    def _reply(self, run: Run, steps: int) -> PlanReply:
        best = run.itineraries[0] if run.itineraries else None
        if best is not None:
            used = [leg.freshness for leg in best.legs]
            freshness = worst_freshness(used)
        elif run.request is not None:
            used_keys = [k for k in required_legs(run.request) if k in run.results]
            freshness = worst_freshness([run.results[k].freshness for k in used_keys])
        else:
            freshness = "unavailable"
        if best is not None and run.absent_trains:
            trains = list(dict.fromkeys(n for it in run.itineraries for n in it.train_numbers))[:3]
            run.warn(texts.TRAIN_ALTERNATIVES.format(trains="、".join(trains)))
        if best is None and run.summary and not run.clarify_question and run.request is not None:
            run.warn(run.summary)
        for key in required_legs(run.request) if run.request else []:
            result = run.results.get(key)
            if result is not None and best is not None:
                for warning in result.warnings:
                    run.warn(warning)
        answers = self._results_used(run, best)
        returns = best is not None and len({leg.segment for leg in best.legs}) > 1
        run.warnings = traveller_warnings(run.warnings, returns=returns)
        return PlanReply(
            intent=run.intent,
            itinerary=best,
            alternatives=run.itineraries[1:],
            summary=run.summary,
            freshness=freshness,
            as_of=min((r.as_of for r in answers if r.as_of is not None), default=None),
            sources=merge_sources(answers),
            agent=AgentInfo(mode=run.mode, steps=steps, trace=run.trace),
            warnings=run.warnings,
            clarify_question=run.clarify_question,
            parser="llm" if run.parsed_by == "llm" else "rules",
            understood=understood(run.intent, best),
            relaxed=run.relaxed_items if best is not None else [],
        )


def asked_in_full(run: Run) -> dict[LegKey, LegOffers]:
    """The legs the sources were asked in full (every train of the day), as the rule engine
    reads them; the official transfer search's halves are not among them. A leg no source
    answered sells nothing here: the search does not ask it again."""
    return {
        key: LegOffers(key, result.offers, result.freshness) for key, result in run.results.items()
    }


def named_places(run: Run, directory: StationDirectory) -> dict[str, Place]:
    """The places the traveller named that are not whole cities (漠河, 昆山, 北京西), by
    their directory city, and the towns keyed as places of their own (`rules.towns`) by
    their name: the legs to and from them are asked by their own stations."""
    request = run.original
    found: dict[str, Place] = {}
    if request is None:
        return found
    found.update(town_places(directory, request.towns))
    for city, station in (
        (request.origin, request.origin_station),
        (request.destination, request.destination_station),
    ):
        if station is None:
            continue
        try:
            place = directory.resolve(station)
        except UnknownStationError:
            continue
        if place.city == city and not place.is_city:
            found[city] = place
    return found


_OFFER_REFUSED = ("不", "别", "换", "no")


def _offer_taken(previous: TravelIntent, intent: TravelIntent, text: str) -> TravelIntent | None:
    """`intent` going to the station offered for a place without one (雪乡: 亚布力西?) when the
    traveller went on with the trip (这周六走，两个大人…) without naming another place; None
    when there was no such offer, the turn named a place or turned it down (不要, 别).
    Said openly by the caller."""
    if text.lstrip().startswith(_OFFER_REFUSED):
        return None
    offered = previous.suggested_places.get("destination")
    place = intent.destination_text
    if offered is None or intent.destination is not None or place not in NON_STATION_PLACES:
        return None
    if place != previous.destination_text:
        return None
    taken = intent.model_copy(update={"destination": offered})
    return taken.model_copy(update={"missing": missing_fields(taken)})


def _question_for(intent: Any, directory: StationDirectory) -> str | None:
    """The clarifying question for a merged (multi-turn) intent, from the intent texts."""
    questions = []
    missing = list(intent.missing)
    if intent.destination is None and intent.destination_text:
        # 河口, still open between its towns' stations: asked which, as the first turn did.
        directed = [s.name for s in directory.directed(intent.destination_text)]
        if len(directed) > 1:
            questions.append(intent_texts.which_of(intent.destination_text, directed))
        else:
            questions.append(intent_texts.not_a_station(intent.destination_text, None))
        missing = [m for m in missing if m != "destination"]
    ask = intent_texts.ask_for(missing)
    if ask:
        questions.append(ask)
    if not questions:
        return None
    return questions[0] + "".join(intent_texts.AND_THEN + q for q in questions[1:])


def _day_rank(order: str | None, request: TripRequest, result: PlanResult) -> tuple[float, ...]:
    """How an accepted day's plan ranks: a day whose plan rides every train the traveller
    named (周六或者周日，坐Z283: the day Z283 has the berth) before one that takes another,
    then by the stated order (`best_day_key`)."""
    best = result.itineraries[0]
    missed = sum(1 for number in request.required_trains if number not in best.train_numbers)
    return (float(missed), *best_day_key(order, request, best))


def _gateway_fits(intent: Any) -> list[Callable[[TrainOffer], bool] | None]:
    """The tests a gateway's trains are put to, strictest first: of a kind the traveller takes
    and in the hours said, of the kind, in the hours, any (only those the request makes)."""
    window = _leaving_within(intent.depart_window)
    allowed, refused = set(intent.train_types), set(intent.exclude_train_types)

    def kind(offer: TrainOffer) -> bool:
        return (not allowed or offer.train_type in allowed) and offer.train_type not in refused

    def both(offer: TrainOffer) -> bool:
        return kind(offer) and window is not None and window(offer)

    typed = kind if allowed or refused else None
    strictest = both if typed is not None and window is not None else None
    return [*(test for test in (strictest, typed, window) if test is not None), None]


def _leaving_within(window: TimeWindow | None) -> Callable[[TrainOffer], bool] | None:
    """A train leaving in the hours said (`window`), or None when no hours were said."""
    if window is None:
        return None
    start, end = window.start, window.end
    return lambda offer: start <= offer.depart_at.astimezone(SHANGHAI).time() <= end
