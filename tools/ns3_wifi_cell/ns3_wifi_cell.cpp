// N stations of one 802.11a cell upload B bytes each over TCP to the access point, all starting at
// once: the packet-level side of the flow-vs-packet cross-check (docs/guide/flow-vs-packet.md).
// Driven with ns-3's own wifi module (Debian's libns3-dev), not through SimGrid's ns-3 binding,
// whose 3.32 release aborts on this setup (the docs page says why).
//
//     coinfer-ns3-wifi-cell --stations=8 --bytes=1000000 --seed=1
//
// (the defaults; each in 1..256, 1..1e9, 1..1e6; a bad argument is one line on stderr, exit 2)
// prints one CSV row: stations, bytes, seed, first / mean / last completion time (seconds after the
// uploads start, the last byte received at the access point), the cell's goodput (all bytes over the
// last completion) and this program's wall time.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/wifi-module.h"

namespace {

constexpr double kStartS = 1.0;    // after association (beacons every 102.4 ms)
constexpr double kStopS = 3600.0;  // an upload not done by then is reported as unfinished
constexpr std::uint32_t kSegment = 1448;

struct Uploads {
  std::uint64_t bytes_each = 0;
  std::uint64_t senders = 0;
  std::map<ns3::Ipv4Address, std::uint64_t> received;
  std::map<ns3::Ipv4Address, double> done_s;

  void on_rx(ns3::Ptr<const ns3::Packet> packet, const ns3::Address& from) {
    const auto sender = ns3::InetSocketAddress::ConvertFrom(from).GetIpv4();
    auto& got = received[sender];
    got += packet->GetSize();
    if (got >= bytes_each && !done_s.count(sender)) {
      done_s[sender] = ns3::Simulator::Now().GetSeconds() - kStartS;
      if (done_s.size() == senders) ns3::Simulator::Stop();  // beacons alone would run on to kStopS
    }
  }
};

// --NAME=VALUE with VALUE an integer in [low, high]; false (after one line on stderr) otherwise.
bool parse_option(const std::string& arg, const char* name, std::uint64_t low, std::uint64_t high,
                  std::uint64_t& value) {
  const std::string prefix = std::string("--") + name + "=";
  const std::string text = arg.substr(prefix.size());
  std::size_t used = 0;
  unsigned long long parsed = 0;
  try {
    parsed = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || text[0] == '-' || parsed < low || parsed > high) {
    std::fprintf(stderr, "coinfer-ns3-wifi-cell: %s: expected an integer in %llu..%llu\n", arg.c_str(),
                 static_cast<unsigned long long>(low), static_cast<unsigned long long>(high));
    return false;
  }
  value = parsed;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t stations = 8, bytes = 1000000, seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    bool ok = false;
    if (arg.rfind("--stations=", 0) == 0)
      ok = parse_option(arg, "stations", 1, 256, stations);
    else if (arg.rfind("--bytes=", 0) == 0)
      ok = parse_option(arg, "bytes", 1, 1000000000, bytes);
    else if (arg.rfind("--seed=", 0) == 0)
      ok = parse_option(arg, "seed", 1, 1000000, seed);
    else
      std::fprintf(
          stderr,
          "coinfer-ns3-wifi-cell: unknown argument '%s'; expected --stations=N, --bytes=N, --seed=N\n",
          arg.c_str());
    if (!ok) return 2;
  }
  const auto wall_start = std::chrono::steady_clock::now();
  ns3::RngSeedManager::SetSeed(1);
  ns3::RngSeedManager::SetRun(seed);
  ns3::Config::SetDefault("ns3::TcpSocket::SegmentSize", ns3::UintegerValue(kSegment));

  ns3::NodeContainer sta, ap;
  sta.Create(static_cast<std::uint32_t>(stations));
  ap.Create(1);
  ns3::YansWifiChannelHelper channel = ns3::YansWifiChannelHelper::Default();
  ns3::YansWifiPhyHelper phy;
  phy.SetChannel(channel.Create());
  ns3::WifiHelper wifi;
  wifi.SetStandard(ns3::WIFI_STANDARD_80211a);
  wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager", "DataMode", ns3::StringValue("OfdmRate54Mbps"),
                               "ControlMode", ns3::StringValue("OfdmRate24Mbps"));
  ns3::WifiMacHelper mac;
  const ns3::Ssid ssid("coinfer-cell");
  mac.SetType("ns3::StaWifiMac", "Ssid", ns3::SsidValue(ssid), "ActiveProbing", ns3::BooleanValue(false));
  const auto sta_dev = wifi.Install(phy, mac, sta);
  mac.SetType("ns3::ApWifiMac", "Ssid", ns3::SsidValue(ssid));
  const auto ap_dev = wifi.Install(phy, mac, ap);

  // The access point at the origin, the stations on a 5 m circle around it: every one hears every
  // other (no hidden terminals) at a rate 54 Mbps holds.
  ns3::MobilityHelper mobility;
  auto positions = ns3::CreateObject<ns3::ListPositionAllocator>();
  positions->Add(ns3::Vector(0, 0, 0));
  for (std::uint64_t i = 0; i < stations; ++i) {
    const double a = 2 * M_PI * double(i) / double(stations);
    positions->Add(ns3::Vector(5 * std::cos(a), 5 * std::sin(a), 0));
  }
  mobility.SetPositionAllocator(positions);
  mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
  mobility.Install(ap);
  mobility.Install(sta);

  ns3::InternetStackHelper stack;
  stack.Install(ap);
  stack.Install(sta);
  ns3::Ipv4AddressHelper address;
  address.SetBase("10.1.0.0", "255.255.0.0");
  const auto ap_if = address.Assign(ap_dev);
  address.Assign(sta_dev);

  Uploads uploads;
  uploads.bytes_each = bytes;
  uploads.senders = stations;
  ns3::PacketSinkHelper sink("ns3::TcpSocketFactory", ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), 9));
  auto sink_app = sink.Install(ap.Get(0));
  sink_app.Start(ns3::Seconds(0));
  sink_app.Get(0)->TraceConnectWithoutContext("Rx", ns3::MakeCallback(&Uploads::on_rx, &uploads));
  ns3::BulkSendHelper bulk("ns3::TcpSocketFactory", ns3::InetSocketAddress(ap_if.GetAddress(0), 9));
  bulk.SetAttribute("MaxBytes", ns3::UintegerValue(bytes));
  bulk.SetAttribute("SendSize", ns3::UintegerValue(kSegment));
  auto senders = bulk.Install(sta);
  senders.Start(ns3::Seconds(kStartS));

  ns3::Simulator::Stop(ns3::Seconds(kStopS));
  ns3::Simulator::Run();
  ns3::Simulator::Destroy();

  if (uploads.done_s.size() != stations) {
    std::fprintf(stderr, "coinfer-ns3-wifi-cell: %zu of %llu uploads finished within %.0f s\n",
                 uploads.done_s.size(), static_cast<unsigned long long>(stations), kStopS);
    return 1;
  }
  std::vector<double> done;
  for (const auto& [who, t] : uploads.done_s) done.push_back(t);
  std::sort(done.begin(), done.end());
  const double mean = std::accumulate(done.begin(), done.end(), 0.0) / done.size();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  std::printf("%llu,%llu,%llu,%.6f,%.6f,%.6f,%.4f,%.3f\n", static_cast<unsigned long long>(stations),
              static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(seed), done.front(),
              mean, done.back(), 8.0 * bytes * stations / done.back() / 1e6, wall);
  return 0;
}
