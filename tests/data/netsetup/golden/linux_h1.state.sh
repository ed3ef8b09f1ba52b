sec state cat /var/lib/distkit/netsetup.state
