-- A rate budget spent. KEYS: the budget's key. ARGV: period (ms), limit.
return spend(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
