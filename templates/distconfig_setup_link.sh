sudo ifconfig {{iface}} inet {{ip}} netmask 255.255.255.252
sudo route change {{peer}} -interface {{iface}}
