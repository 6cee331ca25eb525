"""Reading the frames of a pcap file, for the tests of the module's captures."""

import struct


def read_pcap(path):
    """Return the frames of an Ethernet pcap file (microsecond timestamps), each
    from the destination address to the FCS."""
    data = path.read_bytes()
    assert len(data) >= 24, f"{path.name}: no pcap header"
    magic, _, _, _, _, _, linktype = struct.unpack("<IHHiIII", data[:24])
    assert magic == 0xA1B2C3D4 and linktype == 1, f"{path.name}: not an Ethernet pcap"
    frames, at = [], 24
    while at < len(data):
        _, _, caplen, _ = struct.unpack("<IIII", data[at : at + 16])
        frames.append(data[at + 16 : at + 16 + caplen])
        at += 16 + caplen
    return frames
