/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-helper.h"

#include "ns3/abort.h"
#include "ns3/channel.h"
#include "ns3/config.h"
#include "ns3/drp-compat.h"
#include "ns3/ethernet-channel.h"
#include "ns3/log.h"
#include "ns3/names.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/packet.h"

#ifdef DRP_MPI
#include "ns3/ethernet-remote-channel.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#endif

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetHelper");

EthernetHelper::EthernetHelper()
    : m_enableFlowControl(true)
{
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_deviceFactory.SetTypeId("ns3::EthernetNetDevice");
    m_channelFactory.SetTypeId("ns3::EthernetChannel");
}

EthernetHelper::~EthernetHelper()
{
}

void
EthernetHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
EthernetHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
EthernetHelper::DisableFlowControl()
{
    m_enableFlowControl = false;
}

NetDeviceContainer
EthernetHelper::Install(NodeContainer c)
{
    if (c.GetN() != 2)
    {
        NS_FATAL_ERROR(
            "EthernetHelper::Install: a link joins exactly two nodes, the container holds "
            << c.GetN());
    }
    return Install(c.Get(0), c.Get(1));
}

NetDeviceContainer
EthernetHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    NS_LOG_FUNCTION(this << a << b);
    NS_ABORT_MSG_UNLESS(a && b, "EthernetHelper::Install: null node");
    Ptr<EthernetNetDevice> devA = CreateDevice(a);
    Ptr<EthernetNetDevice> devB = CreateDevice(b);
    return Connect(a, devA, b, devB);
}

NetDeviceContainer
EthernetHelper::Install(Ptr<Node> a, std::string bName)
{
    return Install(a, Names::Find<Node>(bName));
}

NetDeviceContainer
EthernetHelper::Install(std::string aName, Ptr<Node> b)
{
    return Install(Names::Find<Node>(aName), b);
}

NetDeviceContainer
EthernetHelper::Install(std::string aName, std::string bName)
{
    return Install(Names::Find<Node>(aName), Names::Find<Node>(bName));
}

Ptr<EthernetNetDevice>
EthernetHelper::CreateDevice(Ptr<Node> /* node */) const
{
    return m_deviceFactory.Create<EthernetNetDevice>();
}

Ptr<EthernetNetDevice>
EthernetHelper::CreateDeviceOfType(TypeId tid) const
{
    NS_ABORT_MSG_UNLESS(tid.IsChildOf(EthernetNetDevice::GetTypeId()) ||
                            tid == EthernetNetDevice::GetTypeId(),
                        "EthernetHelper: " << tid.GetName() << " is not an EthernetNetDevice");
    ObjectFactory factory = m_deviceFactory;
    factory.SetTypeId(tid);
    return factory.Create<EthernetNetDevice>();
}

Ptr<Queue<Packet>>
EthernetHelper::CreateQueue() const
{
    return m_queueFactory.Create<Queue<Packet>>();
}

void
EthernetHelper::Prepare(Ptr<Node> node, Ptr<EthernetNetDevice> device) const
{
    device->SetQueue(CreateQueue());
    if (device->GetNode() != node)
    {
        NS_ABORT_MSG_IF(device->GetNode(), "EthernetHelper: the device belongs to another node");
        node->AddDevice(device);
    }
    if (m_enableFlowControl && !device->GetObject<NetDeviceQueueInterface>())
    {
        // The device connects the interface to its queue (NotifyNewAggregate).
        device->AggregateObject(CreateObject<NetDeviceQueueInterface>());
    }
}

NetDeviceContainer
EthernetHelper::Connect(Ptr<Node> a,
                        Ptr<EthernetNetDevice> devA,
                        Ptr<Node> b,
                        Ptr<EthernetNetDevice> devB) const
{
    NS_LOG_FUNCTION(this << a << devA << b << devB);
    NS_ABORT_MSG_UNLESS(a && b && devA && devB, "EthernetHelper::Connect: null node or device");
    Prepare(a, devA);
    Prepare(b, devB);
    Ptr<EthernetChannel> channel = CreateChannel(devA, devB);
    devA->Attach(channel);
    devB->Attach(channel);
    NetDeviceContainer container;
    container.Add(devA);
    container.Add(devB);
    return container;
}

Ptr<EthernetChannel>
EthernetHelper::CreateChannel([[maybe_unused]] Ptr<EthernetNetDevice> devA,
                              [[maybe_unused]] Ptr<EthernetNetDevice> devB) const
{
#ifdef DRP_MPI
    if (MpiInterface::IsEnabled() &&
        devA->GetNode()->GetSystemId() != devB->GetNode()->GetSystemId())
    {
        // As PointToPointHelper: the same attributes on the remote variant,
        // and each port takes what the other rank sends it into Receive().
        ObjectFactory factory = m_channelFactory;
        factory.SetTypeId(EthernetRemoteChannel::GetTypeId());
        for (const auto& device : {devA, devB})
        {
            Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
            receiver->SetReceiveCallback(
                MakeBoundCallback(&EthernetRemoteChannel::Deliver, device));
            device->AggregateObject(receiver);
        }
        return factory.Create<EthernetChannel>();
    }
#endif
    return m_channelFactory.Create<EthernetChannel>();
}

NetDeviceContainer
EthernetHelper::Connect(Ptr<EthernetNetDevice> devA, Ptr<EthernetNetDevice> devB) const
{
    NS_ABORT_MSG_UNLESS(devA && devB, "EthernetHelper::Connect: null device");
    NS_ABORT_MSG_UNLESS(devA->GetNode() && devB->GetNode(),
                        "EthernetHelper::Connect: add the devices to their nodes first, "
                        "or use Connect(nodeA, devA, nodeB, devB)");
    return Connect(devA->GetNode(), devA, devB->GetNode(), devB);
}

int64_t
EthernetHelper::AssignStreams(NetDeviceContainer c, int64_t stream)
{
    int64_t current = stream;
    for (auto it = c.Begin(); it != c.End(); ++it)
    {
        if (Ptr<EthernetNetDevice> dev = DynamicCast<EthernetNetDevice>(*it))
        {
            current += dev->AssignStreams(current);
        }
    }
    return current - stream;
}

void
EthernetHelper::ComputeFcsForCapture(Ptr<EthernetNetDevice> device)
{
    device->SetComputeFcs(true);
    Ptr<Channel> channel = device->GetChannel();
    for (std::size_t i = 0; channel && i < channel->GetNDevices(); ++i)
    {
        if (Ptr<EthernetNetDevice> end = DynamicCast<EthernetNetDevice>(channel->GetDevice(i)))
        {
            end->SetComputeFcs(true); // the frames it receives, too
        }
    }
}

void
EthernetHelper::EnablePcapInternal(std::string prefix,
                                   Ptr<NetDevice> nd,
                                   bool promiscuous,
                                   bool explicitFilename)
{
    Ptr<EthernetNetDevice> device = DynamicCast<EthernetNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("Device " << nd << " is not an ns3::EthernetNetDevice");
        return;
    }
    ComputeFcsForCapture(device);
    PcapHelper pcapHelper;
    std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file =
        pcapHelper.CreateFile(filename, std::ios::out, DRP_PCAP_LINKTYPE_ETHERNET);
    pcapHelper.HookDefaultSink<EthernetNetDevice>(device,
                                                  promiscuous ? "PromiscSniffer" : "Sniffer",
                                                  file);
}

void
EthernetHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                                    std::string prefix,
                                    Ptr<NetDevice> nd,
                                    bool explicitFilename)
{
    Ptr<EthernetNetDevice> device = DynamicCast<EthernetNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("Device " << nd << " is not an ns3::EthernetNetDevice");
        return;
    }
    ComputeFcsForCapture(device);
    // The default sinks print packets.
    Packet::EnablePrinting();

    if (!stream)
    {
        // One file per device: no context needed.
        AsciiTraceHelper asciiTraceHelper;
        std::string filename =
            explicitFilename ? prefix : asciiTraceHelper.GetFilenameFromDevice(prefix, device);
        Ptr<OutputStreamWrapper> theStream = asciiTraceHelper.CreateFileStream(filename);
        asciiTraceHelper.HookDefaultReceiveSinkWithoutContext<EthernetNetDevice>(device,
                                                                                 "MacRx",
                                                                                 theStream);
        Ptr<Queue<Packet>> queue = device->GetQueue();
        asciiTraceHelper.HookDefaultEnqueueSinkWithoutContext<Queue<Packet>>(queue,
                                                                             "Enqueue",
                                                                             theStream);
        asciiTraceHelper.HookDefaultDequeueSinkWithoutContext<Queue<Packet>>(queue,
                                                                             "Dequeue",
                                                                             theStream);
        asciiTraceHelper.HookDefaultDropSinkWithoutContext<Queue<Packet>>(queue, "Drop", theStream);
        asciiTraceHelper.HookDefaultDropSinkWithoutContext<EthernetNetDevice>(device,
                                                                              "PhyRxDrop",
                                                                              theStream);
        return;
    }

    // A shared stream: let Config supply the context of every event.
    std::ostringstream base;
    base << "/NodeList/" << nd->GetNode()->GetId() << "/DeviceList/" << nd->GetIfIndex()
         << "/$ns3::EthernetNetDevice/";
    Config::Connect(base.str() + "MacRx",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultReceiveSinkWithContext, stream));
    Config::Connect(base.str() + "TxQueue/Enqueue",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultEnqueueSinkWithContext, stream));
    Config::Connect(base.str() + "TxQueue/Dequeue",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDequeueSinkWithContext, stream));
    Config::Connect(base.str() + "TxQueue/Drop",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDropSinkWithContext, stream));
    Config::Connect(base.str() + "PhyRxDrop",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDropSinkWithContext, stream));
}

} // namespace ns3
