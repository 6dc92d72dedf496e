"""Cup the Crab: rules.pyx (the rules over the C state of rules.pxd), search.pyx (its C
function table and determinizer), observation.pyx (what a seat may know, for learning code)."""
