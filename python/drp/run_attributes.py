"""What a drp fabric run's parameters make of the RNICs' attributes, for the fluid models.

:mod:`drp.dcqcn_model` and :mod:`drp.timely_model` build their models from a
run's parameters (``run_fabric``'s, as ``FabricRunResult.params`` reads them
back): each attribute is its default or the run's ``defaults`` entry, rates
given at a ``ReferenceRate`` scale with the host rate as the schemes scale
them, and a data frame counts its bytes in the switch queue and on the wire.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

#: Ethernet header, DRP header and FCS around a data frame's payload.
FRAME_OVERHEAD = 14 + 32 + 4
#: Preamble and inter-frame gap: what a frame takes of the wire beyond itself.
WIRE_OVERHEAD = 8 + 12
#: The shortest Ethernet frame.
MIN_FRAME = 64


def attribute_reader(params: Mapping[str, Any]) -> Callable[[str], float]:
    """Return a function from an attribute's name ("ns3::DrpDcqcn::G") to its
    value in the run: the run's ``defaults`` entry, else the attribute's default."""
    from drp import _drp

    given = params.get("defaults") or {}

    def attribute(name: str) -> float:
        return _drp.attribute_number(name, str(given.get(name, "")))

    return attribute


def rate_scale(params: Mapping[str, Any], attribute: Callable[[str], float],
               reference: str) -> float:
    """Return host rate / the ``reference`` attribute (a ReferenceRate; 0: 1, as given)."""
    rate = attribute(reference)
    return float(params["host_rate"]) / rate if rate > 0 else 1.0


def frame_bytes(params: Mapping[str, Any]) -> tuple[int, int]:
    """Return a data frame's bytes in a switch queue and on the wire."""
    frame = FRAME_OVERHEAD + int(params["payload"])
    return frame, WIRE_OVERHEAD + max(MIN_FRAME, frame)
