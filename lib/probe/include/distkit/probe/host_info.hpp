// Everything distconfig knows about one host, built from its capture by
// running each section through its parser. Pure: no I/O.
//
// Section names (the same in probes/*.sh, in --save-probes files and in the
// per-command files --from-probes accepts): uname, hostname, hw_model,
// sw_vers, os_release, system_profiler_SPThunderboltDataType,
// networksetup_listallhardwareports, ibv_devices, ibv_devinfo,
// rdma_ctl_status, ifconfig, ifconfig_bridge0, ip_addr, route_to_launcher,
// ssh_connection, ipconfig_getifaddr_en0, ipconfig_getifaddr_en1, sudo,
// python3_version, mlx_version, thunderbolt_sysfs, infiniband_sysfs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "distkit/probe/capture.hpp"
#include "distkit/probe/hardware_ports.hpp"
#include "distkit/probe/netif.hpp"
#include "distkit/probe/rdma.hpp"
#include "distkit/probe/system.hpp"
#include "distkit/probe/thunderbolt.hpp"

namespace distkit::probe {

struct HostInfo {
  std::string host;    // the name the user gave (ssh name)
  bool macos = false;  // uname says Darwin, or Mac-only sections are present
  Uname uname;
  OsVersion os;
  std::string hw_model;  // "Mac15,14", DMI product name on Linux

  bool has_thunderbolt = false;  // system_profiler answered with usable JSON
  TbReport thunderbolt;
  std::vector<HardwarePort> hardware_ports;
  std::vector<LinuxTbDevice> linux_thunderbolt;

  bool has_ibv_devices = false;  // ibv_devices ran (status 0)
  std::vector<RdmaDevice> rdma_devices;
  std::vector<RdmaPortState> rdma_ports;  // ibv_devinfo / sysfs
  RdmaCtl rdma_ctl = RdmaCtl::unknown;

  std::vector<Interface> interfaces;
  std::optional<Interface> bridge0;
  std::optional<Route> route_to_launcher;
  std::string ssh_server_address;        // 3rd field of $SSH_CONNECTION
  std::string en0_address, en1_address;  // ipconfig getifaddr, else ifconfig

  std::optional<bool> passwordless_sudo;  // unset when not probed
  std::string python_version, mlx_version;

  // Problems found while parsing (e.g. invalid system_profiler JSON).
  std::vector<std::string> notes;

  bool has_rdma_device(const std::string& name) const;
  // PORT_ACTIVE / PORT_DOWN of a device's port 1, "" when unknown.
  std::string rdma_port_state(const std::string& device) const;

  // The management address: the address of the interface that routes to the
  // launcher; else the address the SSH connection arrived on; else en0's,
  // then en1's (what MLX does). "" when none is known.
  std::string management_address() const;
};

HostInfo build_host_info(const std::string& host, const Capture& capture);

}  // namespace distkit::probe
