-- SPDX-License-Identifier: GPL-2.0-only
--
-- drp.lua: a Wireshark dissector for DRP, the dynamic RDMA protocol of the
-- drp ns-3 module (contrib/drp/doc/drp-scenarios.rst, "Captures and Wireshark").
--
-- A DRP frame is an Ethernet II frame whose payload starts with the 32-byte
-- DRP header (network byte order):
--
--   0      CTRL    bit0 REQ, bit1 REQ_ACK, bit2 DATA, bit3 REL, bit4 REL_ACK,
--                  bit5 READ, bit6 INDIRECT, bit7 ACK (ACKN is meaningful)
--   1      STATUS  bit0: in a REQ_ACK, 0 valid, 1 invalid (registration
--                  failed), 0 elsewhere; bit1 INT: the in-band telemetry
--                  extension follows (DATA and pure ACK only); bits 2-4:
--                  in a REQ, bit2 MSG (the message extension follows);
--                  in an invalid REQ_ACK, the NAK (0 registration,
--                  1 receiver not ready, 2 invalid request, 3 remote access,
--                  4 remote operation); else 0; bit5 CNP:
--                  congestion notification (only with ACK); bits 7-6: ECN
--                  field (00 Not-ECT, 01 ECT(1), 10 ECT(0), 11 CE)
--   2-3    TID     transfer id
--   4-11   SBA     initiator's address
--   12-19  DBA     responder's address
--   20-23  LEN     REQ: transfer length; DATA: this frame's payload length
--   24-27  SN      data frame sequence number
--   28-31  ACKN    cumulative acknowledgement (the next SN expected)
--
-- followed, when STATUS bit 1 (INT) is set, by the 42-byte INT extension of
-- HPCC (DrpIntHeader): NHOP (hops filled, 0-5), a reserved byte, then five
-- 8-byte hops, each a 64-bit word: RATE (bits 63-61, a code of 1, 10, 25,
-- 40, 50, 100, 200, 400 Gb/s), TIME (bits 60-37, ns mod 2^24), BYTES (bits
-- 36-17, bytes the port had put on the wire, 128-byte units mod 2^20), QLEN (bits
-- 16-0, bytes queued, in 80-byte units); or, in a REQ with STATUS bit 2
-- (MSG), by the 16-byte message extension of the verbs (DrpMessageHeader):
-- OPCODE (InfiniBand's 0x04 SEND, 0x05 SEND with immediate, 0x0B RDMA
-- WRITE with immediate, in a write's REQ; 0x13 compare and swap, 0x14 fetch
-- and add, in a read's REQ of 8 bytes) and DQPN (24 bits), FLAGS (bit0 SE)
-- and SQPN (24 bits), IMM, RKEY, and for an atomic SWAP (the swap value or
-- the addend) and COMPARE, 8 bytes each; then, in a DATA frame, by LEN bytes
-- of payload, then zero padding up to
-- Ethernet's 46-byte minimum payload, then (in captures made by ns-3) the
-- 4-byte FCS.
--
-- Two EtherTypes are decoded:
--   * 0x88B5 (IEEE 802 local experimental), registered in the "ethertype"
--     table like any protocol;
--   * 0x01FF (the paper's value, drp's default). Wireshark reads a
--     length/type value of 1500 or less as an IEEE 802.3 length, so these
--     frames never reach the ethertype table; a heuristic dissector on "eth"
--     claims well-formed DRP frames of type 0x01FF before that happens, and
--     decodes their Ethernet header itself (with the eth.dst, eth.src,
--     eth.addr and eth.type fields, so the usual filters apply).
--
-- Use it with "tshark -X lua_script:drp.lua ..." or install it into the
-- personal Lua plugin folder ("tshark -G folders"; cmake --install does).
-- Filters: drp, drp.tid == 3, drp.ctrl.indirect == 1, drp.type == "DATA",
-- drp.status == 1, drp.status.reply == 1, drp.status.ecn == 3 (CE),
-- drp.status.cnp == 1, drp.status.int == 1, drp.int.nhop, drp.int.rate (Gb/s),
-- drp.int.time, drp.int.bytes, drp.int.qlen (bytes), drp.status.msg == 1,
-- drp.status.nak, drp.msg.opcode, drp.msg.dqpn, drp.msg.sqpn, drp.msg.imm,
-- drp.msg.rkey, drp.msg.se, drp.msg.swap, drp.msg.compare,
-- drp.sn, drp.ackn, drp.len, drp.sba, drp.dba (a flag such
-- as drp.ctrl.indirect is present in every frame, as tcp.flags.syn is: compare
-- it with 1). Preferences: drp.heuristic_01ff (default on), drp.check_fcs
-- (default off: compute the CRC-32 of each DRP frame, as eth.check_fcs does).

local drp = Proto("drp", "Dynamic RDMA Protocol")
local drp_eth = Proto("drp_eth", "Ethernet II (DRP EtherType 0x01FF)")

local ETHERTYPE_LOCAL_EXPERIMENTAL = 0x88B5
local ETHERTYPE_PAPER = 0x01FF
local ETH_HEADER_SIZE = 14
local DRP_HEADER_SIZE = 32
local MIN_PAYLOAD_SIZE = 46
local FCS_SIZE = 4

local REQ, REQ_ACK, DATA, REL, REL_ACK = 0x01, 0x02, 0x04, 0x08, 0x10
local READ, INDIRECT, ACK = 0x20, 0x40, 0x80
local TYPE_NAMES = { [REQ] = "REQ", [REQ_ACK] = "REQ_ACK", [DATA] = "DATA", [REL] = "REL",
                     [REL_ACK] = "REL_ACK" }

local status_names = { [0] = "valid", [1] = "invalid" }
local STATUS_REPLY, STATUS_INT, STATUS_CONTEXT, STATUS_CNP, STATUS_ECN =
    0x01, 0x02, 0x1C, 0x20, 0xC0
local STATUS_MSG = 0x04
local nak_names = { [0] = "registration", [1] = "receiver not ready", [2] = "invalid request",
                    [3] = "remote access", [4] = "remote operation" }
local MSG_SIZE = 16
local ATOMIC_SIZE = 16 -- an atomic's operands, after the 16 bytes
local msg_opcode_names = { [0x04] = "SEND", [0x05] = "SEND with immediate",
                           [0x0B] = "RDMA WRITE with immediate",
                           [0x13] = "Compare and swap", [0x14] = "Fetch and add" }
local function is_atomic(opcode)
    return opcode == 0x13 or opcode == 0x14
end
local INT_SIZE, INT_MAX_HOPS = 42, 5
local INT_RATES_GBPS = { [0] = 1, 10, 25, 40, 50, 100, 200, 400 }
local ecn_names = { [0] = "Not-ECT", [1] = "ECT(1)", [2] = "ECT(0)", [3] = "CE" }
local fcs_status_names = { [0] = "Bad", [1] = "Good", [2] = "Unverified" }

local f = drp.fields
f.ctrl = ProtoField.uint8("drp.ctrl", "CTRL", base.HEX)
f.req = ProtoField.bool("drp.ctrl.req", "REQ", 8, nil, REQ, "Connection request")
f.req_ack = ProtoField.bool("drp.ctrl.req_ack", "REQ_ACK", 8, nil, REQ_ACK,
                            "Connection reply (with ACK: a read confirmation)")
f.data = ProtoField.bool("drp.ctrl.data", "DATA", 8, nil, DATA, "Data frame")
f.rel = ProtoField.bool("drp.ctrl.rel", "REL", 8, nil, REL, "Release request")
f.rel_ack = ProtoField.bool("drp.ctrl.rel_ack", "REL_ACK", 8, nil, REL_ACK, "Release reply")
f.read = ProtoField.bool("drp.ctrl.read", "READ", 8, { "read", "write" }, READ,
                         "The transfer is a read (0: write)")
f.indirect = ProtoField.bool("drp.ctrl.indirect", "INDIRECT", 8, { "indirect", "direct" },
                             INDIRECT, "Sent in indirect mode (0: direct)")
f.ack = ProtoField.bool("drp.ctrl.ack", "ACK", 8, nil, ACK, "ACKN is meaningful")
f.type = ProtoField.string("drp.type", "Frame type")
f.status = ProtoField.uint8("drp.status", "STATUS", base.HEX, nil, nil,
                            "Reply code, congestion notification and ECN field")
f.status_reply = ProtoField.uint8("drp.status.reply", "Reply", base.DEC, status_names,
                                  STATUS_REPLY,
                                  "In a REQ_ACK: 0 valid, 1 invalid (registration failed)")
f.status_cnp = ProtoField.bool("drp.status.cnp", "CNP", 8, nil, STATUS_CNP,
                               "Congestion notification: a CE-marked frame arrived")
f.status_ecn = ProtoField.uint8("drp.status.ecn", "ECN", base.DEC, ecn_names, STATUS_ECN,
                                "ECN field (RFC 3168 codepoints)")
f.status_int = ProtoField.bool("drp.status.int", "INT", 8, nil, STATUS_INT,
                               "The in-band telemetry extension follows the header")
f.status_msg = ProtoField.bool("drp.status.msg", "MSG", 8, nil, STATUS_MSG,
                               "In a REQ: the message extension follows")
f.status_nak = ProtoField.uint8("drp.status.nak", "NAK", base.DEC, nak_names, STATUS_CONTEXT,
                                "In an invalid REQ_ACK: why the responder refused")
f.msg = ProtoField.bytes("drp.msg", "Message", base.NONE,
                         "The verbs' message extension of a REQ")
f.msg_opcode = ProtoField.uint8("drp.msg.opcode", "Opcode", base.HEX, msg_opcode_names)
f.msg_dqpn = ProtoField.uint24("drp.msg.dqpn", "Destination QP", base.DEC)
f.msg_se = ProtoField.bool("drp.msg.se", "Solicited event", 8, nil, 0x01)
f.msg_sqpn = ProtoField.uint24("drp.msg.sqpn", "Source QP", base.DEC)
f.msg_imm = ProtoField.uint32("drp.msg.imm", "Immediate data", base.HEX)
f.msg_rkey = ProtoField.uint32("drp.msg.rkey", "RKEY", base.HEX)
f.msg_swap = ProtoField.uint64("drp.msg.swap", "Swap or add", base.DEC)
f.msg_compare = ProtoField.uint64("drp.msg.compare", "Compare", base.DEC)
f.int = ProtoField.bytes("drp.int", "In-band telemetry", base.NONE,
                         "HPCC's INT: the switch ports a data frame crossed")
f.int_nhop = ProtoField.uint8("drp.int.nhop", "Hops", base.DEC)
f.int_hop = ProtoField.uint64("drp.int.hop", "Hop", base.HEX)
f.int_rate = ProtoField.uint16("drp.int.rate", "Line rate (Gb/s)", base.DEC)
f.int_time = ProtoField.uint32("drp.int.time", "Time (ns mod 2^24)", base.DEC)
f.int_bytes = ProtoField.uint64("drp.int.bytes", "Bytes sent (mod 2^20 x 128)", base.DEC)
f.int_qlen = ProtoField.uint32("drp.int.qlen", "Queue (bytes)", base.DEC)
f.tid = ProtoField.uint16("drp.tid", "TID", base.DEC, nil, nil, "Transfer id")
f.sba = ProtoField.uint64("drp.sba", "SBA", base.HEX, nil, nil, "Initiator's address")
f.dba = ProtoField.uint64("drp.dba", "DBA", base.HEX, nil, nil, "Responder's address")
f.len = ProtoField.uint32("drp.len", "LEN", base.DEC, nil, nil,
                          "REQ: transfer length; DATA: payload length")
f.sn = ProtoField.uint32("drp.sn", "SN", base.DEC, nil, nil, "Data frame sequence number")
f.ackn = ProtoField.uint32("drp.ackn", "ACKN", base.DEC, nil, nil,
                           "Cumulative acknowledgement: the next SN expected")
f.payload = ProtoField.bytes("drp.payload", "Payload")
f.padding = ProtoField.bytes("drp.padding", "Padding", base.NONE,
                             "Zero padding up to the 46-byte minimum Ethernet payload")
f.fcs = ProtoField.uint32("drp.fcs", "Frame check sequence", base.HEX)
f.fcs_status = ProtoField.uint8("drp.fcs.status", "FCS status", base.DEC, fcs_status_names)
f.trailer = ProtoField.bytes("drp.trailer", "Trailer")

-- The Ethernet header of a 0x01FF frame, under the eth fields' own names.
local e = drp_eth.fields
e.dst = ProtoField.ether("eth.dst", "Destination")
e.src = ProtoField.ether("eth.src", "Source")
e.addr = ProtoField.ether("eth.addr", "Address")
e.type = ProtoField.uint16("eth.type", "Type", base.HEX)

local ef_ctrl = ProtoExpert.new("drp.ctrl.invalid", "CTRL names no single frame type",
                                expert.group.MALFORMED, expert.severity.ERROR)
local ef_status = ProtoExpert.new("drp.status.invalid", "STATUS is not valid for this frame",
                                  expert.group.MALFORMED, expert.severity.ERROR)
local ef_length = ProtoExpert.new("drp.len.mismatch", "LEN disagrees with the frame's length",
                                  expert.group.MALFORMED, expert.severity.ERROR)
local ef_int = ProtoExpert.new("drp.int.invalid", "INT extension truncated or NHOP above 5",
                               expert.group.MALFORMED, expert.severity.ERROR)
local ef_msg = ProtoExpert.new("drp.msg.invalid",
                               "Message extension truncated, or its opcode or flags unknown",
                               expert.group.MALFORMED, expert.severity.ERROR)
local ef_fcs = ProtoExpert.new("drp.fcs.bad", "Bad checksum",
                               expert.group.CHECKSUM, expert.severity.ERROR)
drp.experts = { ef_ctrl, ef_status, ef_length, ef_int, ef_msg, ef_fcs }

drp.prefs.heuristic_01ff = Pref.bool("Decode EtherType 0x01FF", true,
    "Claim well-formed DRP frames with EtherType 0x01FF, which Wireshark "
    .. "would otherwise read as IEEE 802.3 frames of length 511")
drp.prefs.check_fcs = Pref.bool("Validate the FCS", false,
    "Compute the CRC-32 of each DRP frame and compare it with the FCS "
    .. "(as eth.check_fcs does for other frames)")

-- CRC-32 (IEEE 802.3), table-driven.
local crc_table = {}
for i = 0, 255 do
    local c = i
    for _ = 1, 8 do
        if bit32.band(c, 1) == 1 then
            c = bit32.bxor(0xEDB88320, bit32.rshift(c, 1))
        else
            c = bit32.rshift(c, 1)
        end
    end
    crc_table[i] = c
end

local function crc32(bytes, length)
    local crc = 0xFFFFFFFF
    for i = 0, length - 1 do
        local index = bit32.band(bit32.bxor(crc, bytes:get_index(i)), 0xFF)
        crc = bit32.bxor(bit32.rshift(crc, 8), crc_table[index])
    end
    return bit32.bxor(crc, 0xFFFFFFFF)
end

-- The frame type named by CTRL: "REQ", ..., "ACK" (a pure acknowledgement),
-- or nil when CTRL names none or several.
local function frame_type(ctrl)
    local types = bit32.band(ctrl, 0x1F)
    if types == 0 then
        return bit32.band(ctrl, ACK) ~= 0 and "ACK" or nil
    end
    return TYPE_NAMES[types]
end

local function has(ctrl, flag)
    return bit32.band(ctrl, flag) ~= 0
end

-- STATUS as the frame type allows: the reply code only in a REQ_ACK, bits
-- 2-4 MSG only in a REQ and a NAK (0-4) only in an invalid REQ_ACK,
-- CNP only with ACK, INT only in DATA and pure ACKs (any ECN codepoint on
-- any frame).
local function status_valid(name, ctrl, status)
    local reply = bit32.band(status, STATUS_REPLY)
    local context = bit32.band(status, STATUS_CONTEXT)
    local msg = name == "REQ" and context == STATUS_MSG
    local nak = name == "REQ_ACK" and reply == 1 and bit32.rshift(context, 2) <= 4
    if context ~= 0 and not msg and not nak then
        return false
    end
    if bit32.band(status, STATUS_INT) ~= 0 and name ~= "DATA" and name ~= "ACK" then
        return false
    end
    if bit32.band(status, STATUS_CNP) ~= 0 and not has(ctrl, ACK) then
        return false
    end
    return name == "REQ_ACK" or reply == 0
end

-- The Info column: "REQ tid=3 len=131072", "DATA tid=3 sn=17 indirect",
-- "ACK tid=3 ackn=24", "REQ_ACK tid=3 invalid", "REL tid=3".
local function summary(name, ctrl, status, tid, len, sn, ackn)
    local parts = { name or string.format("CTRL=0x%02x", ctrl), "tid=" .. tid }
    local context = bit32.band(status, STATUS_CONTEXT)
    if name == "REQ" then
        parts[#parts + 1] = "len=" .. len
        if context == STATUS_MSG then
            parts[#parts + 1] = "msg"
        end
    elseif name == "REQ_ACK" then
        if has(ctrl, ACK) then
            parts[#parts + 1] = "confirm"
        else
            parts[#parts + 1] = status_names[bit32.band(status, STATUS_REPLY)]
            if context ~= 0 then
                parts[#parts + 1] = "nak=" .. (nak_names[bit32.rshift(context, 2)] or "?")
            end
        end
    elseif name == "DATA" then
        parts[#parts + 1] = "sn=" .. sn
    end
    if has(ctrl, INDIRECT) then
        parts[#parts + 1] = "indirect"
    end
    if has(ctrl, READ) then
        parts[#parts + 1] = "read"
    end
    if has(ctrl, ACK) and name ~= "REQ_ACK" then
        parts[#parts + 1] = "ackn=" .. ackn
    end
    local ecn = bit32.rshift(bit32.band(status, STATUS_ECN), 6)
    if ecn ~= 0 then
        parts[#parts + 1] = ecn_names[ecn]
    end
    if bit32.band(status, STATUS_CNP) ~= 0 then
        parts[#parts + 1] = "cnp"
    end
    if bit32.band(status, STATUS_INT) ~= 0 then
        parts[#parts + 1] = "int"
    end
    return table.concat(parts, " ")
end

-- Dissects the INT extension at offset: NHOP, then each hop filled.
local function dissect_int(tvb, offset, tree)
    local int_tree = tree:add(f.int, tvb(offset, INT_SIZE))
    local nhop = tvb(offset, 1):uint()
    local nhop_item = int_tree:add(f.int_nhop, tvb(offset, 1))
    int_tree:set_text("In-band telemetry, " .. nhop .. " hop" .. (nhop == 1 and "" or "s"))
    if nhop > INT_MAX_HOPS then
        nhop_item:add_proto_expert_info(ef_int)
        nhop = INT_MAX_HOPS
    end
    for i = 0, nhop - 1 do
        local at = offset + 2 + 8 * i
        local hi = tvb(at, 4):uint()
        local lo = tvb(at + 4, 4):uint()
        local rate = INT_RATES_GBPS[bit32.rshift(hi, 29)]
        -- TIME: bits 60-37 = bits 28-5 of the high word.
        local time = bit32.band(bit32.rshift(hi, 5), 0xFFFFFF)
        -- BYTES: bits 36-17 = bits 4-0 of the high word, bits 31-17 of the low.
        local units = bit32.bor(bit32.lshift(bit32.band(hi, 0x1F), 15), bit32.rshift(lo, 17))
        local qlen = bit32.band(lo, 0x1FFFF) * 80
        local hop_tree = int_tree:add(f.int_hop, tvb(at, 8))
        hop_tree:set_text(string.format(
            "Hop %d: %d Gb/s, time %d ns, sent %d bytes, queue %d bytes",
            i + 1, rate, time, units * 128, qlen))
        hop_tree:add(f.int_rate, tvb(at, 1), rate)
        hop_tree:add(f.int_time, tvb(at, 4), time)
        hop_tree:add(f.int_bytes, tvb(at + 3, 3), UInt64(units * 128))
        hop_tree:add(f.int_qlen, tvb(at + 5, 3), qlen)
    end
end

-- Dissects the message extension (size bytes) at offset, in a REQ whose
-- READ flag is read and LEN len; returns false if it is not valid.
local function dissect_msg(tvb, offset, tree, size, read, len)
    local msg_tree = tree:add(f.msg, tvb(offset, size))
    local opcode = tvb(offset, 1):uint()
    local flags = tvb(offset + 4, 1):uint()
    msg_tree:set_text("Message: " .. (msg_opcode_names[opcode] or string.format("0x%02x", opcode)))
    msg_tree:add(f.msg_opcode, tvb(offset, 1))
    msg_tree:add(f.msg_dqpn, tvb(offset + 1, 3))
    msg_tree:add(f.msg_se, tvb(offset + 4, 1))
    msg_tree:add(f.msg_sqpn, tvb(offset + 5, 3))
    msg_tree:add(f.msg_imm, tvb(offset + 8, 4))
    msg_tree:add(f.msg_rkey, tvb(offset + 12, 4))
    local atomic = is_atomic(opcode)
    if atomic then
        msg_tree:add(f.msg_swap, tvb(offset + 16, 8))
        msg_tree:add(f.msg_compare, tvb(offset + 24, 8))
    end
    -- A write carries a message, a read of 8 bytes an atomic (no SE).
    local valid = msg_opcode_names[opcode] ~= nil and bit32.band(flags, 0xFE) == 0 and
        atomic == read and (not atomic or (len == 8 and flags == 0))
    if not valid then
        msg_tree:add_proto_expert_info(ef_msg)
    end
    return valid
end

-- Dissects the DRP header and what follows it in tvb from offset; eth_header
-- holds the frame's 14 header bytes (for the FCS). Returns the bytes consumed.
local function dissect_drp(tvb, offset, eth_header, pinfo, root)
    local available = tvb:len() - offset
    local ctrl = tvb(offset, 1):uint()
    local status = tvb(offset + 1, 1):uint()
    local tid = tvb(offset + 2, 2):uint()
    local len = tvb(offset + 20, 4):uint()
    local sn = tvb(offset + 24, 4):uint()
    local ackn = tvb(offset + 28, 4):uint()
    local name = frame_type(ctrl)

    pinfo.cols.protocol = "DRP"
    pinfo.cols.info = summary(name, ctrl, status, tid, len, sn, ackn)

    local subtree = root:add(drp, tvb(offset, DRP_HEADER_SIZE))
    subtree:append_text(", " .. summary(name, ctrl, status, tid, len, sn, ackn))
    local ctrl_item = subtree:add(f.ctrl, tvb(offset, 1))
    ctrl_item:append_text(" (" .. (name or "invalid") .. ")")
    for _, field in ipairs({ f.req, f.req_ack, f.data, f.rel, f.rel_ack, f.read, f.indirect,
                             f.ack }) do
        ctrl_item:add(field, tvb(offset, 1))
    end
    if name then
        subtree:add(f.type, name):set_generated()
    else
        ctrl_item:add_proto_expert_info(ef_ctrl)
    end
    local status_item = subtree:add(f.status, tvb(offset + 1, 1))
    for _, field in ipairs({ f.status_reply, f.status_int, f.status_cnp, f.status_ecn }) do
        status_item:add(field, tvb(offset + 1, 1))
    end
    if name == "REQ" then
        status_item:add(f.status_msg, tvb(offset + 1, 1))
    elseif name == "REQ_ACK" and bit32.band(status, STATUS_REPLY) ~= 0 then
        status_item:add(f.status_nak, tvb(offset + 1, 1))
    end
    if not status_valid(name, ctrl, status) then
        status_item:add_proto_expert_info(ef_status)
    end
    subtree:add(f.tid, tvb(offset + 2, 2))
    subtree:add(f.sba, tvb(offset + 4, 8))
    subtree:add(f.dba, tvb(offset + 12, 8))
    local len_item = subtree:add(f.len, tvb(offset + 20, 4))
    subtree:add(f.sn, tvb(offset + 24, 4))
    subtree:add(f.ackn, tvb(offset + 28, 4))

    -- What follows the header: the INT extension, the payload (DATA),
    -- padding, the FCS.
    local extension = 0
    if bit32.band(status, STATUS_INT) ~= 0 then
        extension = INT_SIZE
        if available < DRP_HEADER_SIZE + INT_SIZE then
            subtree:add_proto_expert_info(ef_int)
            return available
        end
        dissect_int(tvb, offset + DRP_HEADER_SIZE, subtree)
    elseif name == "REQ" and bit32.band(status, STATUS_CONTEXT) == STATUS_MSG then
        extension = MSG_SIZE
        if available >= DRP_HEADER_SIZE + 1 and is_atomic(tvb(offset + DRP_HEADER_SIZE, 1):uint()) then
            extension = MSG_SIZE + ATOMIC_SIZE
        end
        if available < DRP_HEADER_SIZE + extension then
            subtree:add_proto_expert_info(ef_msg)
            return available
        end
        dissect_msg(tvb, offset + DRP_HEADER_SIZE, subtree, extension, has(ctrl, READ), len)
    end
    local content = DRP_HEADER_SIZE + extension + (name == "DATA" and len or 0)
    local at = offset + DRP_HEADER_SIZE + extension
    local rest = available - DRP_HEADER_SIZE - extension
    if name == "DATA" and len == 0 or available < content then
        len_item:add_proto_expert_info(ef_length)
        if rest > 0 then
            subtree:add(f.payload, tvb(at, rest))
        end
        return available
    end
    if content > DRP_HEADER_SIZE + extension then
        subtree:add(f.payload, tvb(at, content - DRP_HEADER_SIZE - extension))
        at = offset + content
    end
    local padding = 0
    if content < MIN_PAYLOAD_SIZE and available >= MIN_PAYLOAD_SIZE then
        padding = MIN_PAYLOAD_SIZE - content
        subtree:add(f.padding, tvb(at, padding))
        at = at + padding
    end
    local trailer = available - content - padding
    if trailer == FCS_SIZE then
        -- ns-3's captures carry the FCS (little-endian CRC-32 of the frame).
        local fcs = tvb(at, FCS_SIZE):le_uint()
        local fcs_item = subtree:add(f.fcs, tvb(at, FCS_SIZE), fcs)
        if drp.prefs.check_fcs and eth_header then
            local frame = eth_header .. tvb:bytes(offset, at - offset)
            local computed = crc32(frame, frame:len())
            if computed == fcs then
                fcs_item:append_text(" [correct]")
                fcs_item:add(f.fcs_status, 1):set_generated()
            else
                fcs_item:append_text(string.format(" [incorrect, should be 0x%08x]", computed))
                fcs_item:add(f.fcs_status, 0):set_generated()
                fcs_item:add_proto_expert_info(ef_fcs)
            end
        else
            fcs_item:append_text(" [unverified]")
            fcs_item:add(f.fcs_status, 2):set_generated()
        end
    elseif trailer > 0 then
        subtree:add(f.trailer, tvb(at, trailer))
    end
    return available
end

local eth_dst_field = Field.new("eth.dst")
local eth_src_field = Field.new("eth.src")
local eth_type_field = Field.new("eth.type")

-- EtherType 0x88B5: the ethertype table hands over the payload.
function drp.dissector(tvb, pinfo, root)
    if tvb:len() < DRP_HEADER_SIZE then
        return 0
    end
    -- The Ethernet header, as the eth dissector found it (for the FCS).
    local dst, src, etype = eth_dst_field(), eth_src_field(), eth_type_field()
    local eth_header = nil
    if dst and src and etype then
        eth_header = dst.range:bytes() .. src.range:bytes() .. etype.range:bytes()
    end
    return dissect_drp(tvb, 0, eth_header, pinfo, root)
end

-- EtherType 0x01FF: claimed from the whole Ethernet frame before Wireshark
-- reads the type as an 802.3 length.
local function heuristic_01ff(tvb, pinfo, root)
    if not drp.prefs.heuristic_01ff or tvb:len() < ETH_HEADER_SIZE + DRP_HEADER_SIZE then
        return false
    end
    if tvb(12, 2):uint() ~= ETHERTYPE_PAPER then
        return false
    end
    local ctrl = tvb(ETH_HEADER_SIZE, 1):uint()
    local status = tvb(ETH_HEADER_SIZE + 1, 1):uint()
    local name = frame_type(ctrl)
    if not name or not status_valid(name, ctrl, status) then
        return false -- not DRP: let Wireshark decode it as 802.3
    end
    local eth_tree = root:add(drp_eth, tvb(0, ETH_HEADER_SIZE))
    eth_tree:append_text(", Src: " .. tostring(tvb(6, 6):ether()) .. ", Dst: "
                         .. tostring(tvb(0, 6):ether()))
    eth_tree:add(e.dst, tvb(0, 6))
    eth_tree:add(e.src, tvb(6, 6))
    eth_tree:add(e.addr, tvb(0, 6)):set_hidden()
    eth_tree:add(e.addr, tvb(6, 6)):set_hidden()
    eth_tree:add(e.type, tvb(12, 2)):append_text(" (DRP; not an 802.3 length)")
    pinfo.dl_src = tvb(6, 6):ether()
    pinfo.dl_dst = tvb(0, 6):ether()
    pinfo.src = tvb(6, 6):ether()
    pinfo.dst = tvb(0, 6):ether()
    dissect_drp(tvb, ETH_HEADER_SIZE, tvb:bytes(0, ETH_HEADER_SIZE), pinfo, root)
    return true
end

local ethertype_table = DissectorTable.get("ethertype")
ethertype_table:add(ETHERTYPE_LOCAL_EXPERIMENTAL, drp)
-- Another EtherType (RnicNetDevice::EtherType): "Decode As", or tshark -d ethertype==0x88b6,drp
ethertype_table:add_for_decode_as(drp)
drp:register_heuristic("eth", heuristic_01ff)
