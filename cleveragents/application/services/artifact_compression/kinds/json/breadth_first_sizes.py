"""Smart mode for JSON: the size of every breadth-first level, from one pass over the document.

A breadth-first level (`Detail.members`) admits the first `m` members of the breadth-first
order from the root (`Survey.admission`). Each container's members come together in that order,
so at any `m` the containers before some point have all their members admitted, the one at that
point some of them, and the others none. A container's size is its members' sizes plus a frame
that does not depend on them (`RenderedSizes.container_chars`), so a level's size is the root's
size as a marker plus, for each container admitted, what writing it with its members adds to
writing it as a marker (its own containers as markers: what they add is counted for them).

Those gains are measured once, by the pruner itself, one container at a time: both of its
sizes in one pass over its members (`Pruner.marker_and_members`, which sizes an API
description's containers in a third of the time measuring each at two levels took); a level
then costs a lookup of the gains before its point and the measurement of the one container at
its point (`Pruner.measure_container`). A search that measures a dozen such levels, each a
walk of what the level admits, walks the document about once.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import replace
from typing import TYPE_CHECKING

from cleveragents.application.services.artifact_compression.kinds.json.detail import Detail

if TYPE_CHECKING:
    from cleveragents.application.services.artifact_compression.kinds.json.pruner import (
        MemberPrefix,
        Pruner,
    )


class BreadthFirstSizes:
    """The sizes of the breadth-first levels from the root that are written like `detail` but
    for how many members they admit. The gains are measured as far as the levels asked for
    reach, in the order: a search of small levels measures the start of the document only."""

    def __init__(self, pruner: Pruner, detail: Detail) -> None:
        self._pruner = pruner
        self._detail = detail
        self._admission = pruner.survey.admission(pruner.survey.root)
        self._depths: list[int] = []
        self._lines: list[int] = []
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._as_markers: list[int] = []
        self._gained = [0]
        self._prefixes: list[MemberPrefix | None] = []
        self._shares_walked: dict[int, int] = {}
        """By place: the most members a level whose point it is admitted (their containers,
        walked as markers then, are remembered by the pruner)."""
        self._points_walked: set[tuple[int, int]] = set()
        """The (place, share) sized: the pruner remembers the container at that share."""
        self._level = detail
        self._own = 0
        """The own parts of the containers measured: all each writes at the levels that admit
        its members but its containers' markers."""

    def size(self, members: int) -> int:
        """The size of the level that admits the first `members` members."""
        containers = self._admission.containers
        if not containers:
            root = self._pruner.survey.root  # an empty one: no member to admit
            line = self._pruner.lines.root_line
            return self._pruner.measure_container(root, 0, line, self._detail)
        self._measure_up_to(members)
        whole = bisect_right(self._ends, members)  # the containers all of whose members are in
        size = self._as_markers[0] + self._gained[whole]
        if whole < len(self._starts) and self._starts[whole] < members:
            # The container at the point: some of its members are in.
            size += self._at_point(whole, members) - self._as_markers[whole]
        return size

    def whole_size(self, cap: float) -> int:
        """The size of the level that admits every member, exact up to `cap`, else some size
        over it. The gains are measured in the order until the own parts of the containers
        measured are over `cap` (the walk stops there, as a walk of the level would at its
        cap, and the levels below it are sized already). That level writes each container's
        own part (all it writes but its containers' markers: their members replace them), so
        their sum only grows towards its size. (The size of a level that admits fewer
        members does not: a container smaller written than its marker shrinks the next.)"""
        containers = self._admission.containers
        if not containers:
            return self.size(0)
        self._measure_up_to(self._admission.size, cap)
        if len(self._starts) < len(containers):
            return int(cap) + 1  # its own parts so far are over the cap
        size = self._as_markers[0] + self._gained[-1]
        return int(min(size, cap + 1)) if size > cap else size

    def _at_point(self, place: int, members: int) -> int:
        """The container at the level's point, some of its members admitted: a large object
        from its `MemberPrefix`, charged what measuring it would have walked (the object, and
        the containers among its members admitted not walked before); else measured."""
        prefix = self._prefixes[place]
        container = self._admission.containers[place]
        share = members - self._starts[place]
        if prefix is not None and isinstance(container, dict):
            size = self._pruner.object_admitting(
                container, self._depths[place], self._lines[place], self._detail, share, prefix
            )
            if size is not None:
                seen = self._shares_walked.get(place, 0)
                if (place, share) not in self._points_walked:
                    self._points_walked.add((place, share))
                    self._pruner.walked += len(container) + 1
                    if share > seen:
                        self._pruner.walked += prefix.walks[share] - prefix.walks[seen]
                        self._shares_walked[place] = share
                return size
        return self._size(place, members)

    def _measure_up_to(self, members: int, cap: float = float("inf")) -> None:
        """The gains of every container that the level admitting `members` members admits
        some of, measured if they are not yet; with a `cap`, only until their own parts are
        over it (`whole_size`)."""
        admission = self._admission
        containers, lines = admission.containers, self._pruner.lines
        place = len(self._starts)
        while place < len(containers) and (not place or self._ends[-1] < members):
            if self._own > cap:
                return
            container = containers[place]
            parent, index = admission.places[place]
            if parent < 0:
                depth, line = 0, lines.root_line
            else:
                depth = self._depths[parent] + 1
                line = lines.child_line(containers[parent], self._lines[parent], index)
            self._depths.append(depth)
            self._lines.append(line)
            start = admission.ranks[id(container)]
            # The length of its breadth-first order: every member of an object, an array's
            # first item.
            length = len(container) if isinstance(container, dict) else 1
            as_marker, admitted, markers, prefix = self._pruner.marker_and_members(
                container,  # type: ignore[arg-type]
                depth,
                line,
                self._detail,
            )
            self._starts.append(start)
            self._ends.append(start + length)
            self._as_markers.append(as_marker)
            self._prefixes.append(prefix)
            self._gained.append(self._gained[-1] + admitted - as_marker)
            self._own += admitted - markers
            place += 1

    def _size(self, place: int, members: int) -> int:
        """The size of container `place` alone at the level that admits `members` members
        (its own containers are markers: their members come after all of its)."""
        level = self._level
        if level.members != members:
            # One level a container: where one container's members end the next one's
            # start (`dataclasses.replace` costs as much as measuring a small container).
            level = self._level = replace(self._detail, members=members)
        return self._pruner.measure_container(
            self._admission.containers[place], self._depths[place], self._lines[place], level
        )
