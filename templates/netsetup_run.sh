if [ "$(id -u)" = 0 ]; then exec /bin/sh -s; else exec sudo -n /bin/sh -s; fi
