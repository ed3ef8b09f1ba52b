# distaccept (templates/accept_hash_file.sh): the hash_file function that
# accept_probe.sh and accept_collect.sh are rendered after. Prints a file's
# SHA-256 in hex, or "-" when it is not a regular file. POSIX sh; sha256sum
# on Linux, shasum on macOS, openssl as a last resort.
hash_file() {
  if [ ! -f "$1" ]; then echo -; return 0; fi
  if command -v sha256sum >/dev/null 2>&1; then sha256sum <"$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then shasum -a 256 <"$1" | cut -d ' ' -f 1
  else openssl dgst -sha256 <"$1" | sed 's/.*= *//'; fi
}
