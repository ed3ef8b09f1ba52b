section state cat /var/lib/distkit/netsetup.state
