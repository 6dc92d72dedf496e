"""Strangers meeting at a table: open seats, the waiting list, joins, leaves and
rematches (`seats`), and turn clocks (`clocks` over the shared index of `deadlines`)."""
