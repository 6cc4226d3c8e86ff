"""Analyses of records and maps: the possible-set tracker, legality (the referee), routes, reach, legal moves."""
