"""Arabic date and time: Django's Arabic formats have no DATETIME_FORMAT, so a deadline
fell back to the English "Dec. 1, 2026, 5:08 p.m." order. Day, month, year, then the
time, as the Arabic DATE_FORMAT and TIME_FORMAT already write them.

Numbers: Arabic as CLDR writes it with the digits 0–9 (the digits on the cards, and
what browsers' Intl uses for "ar"): "12.5" and "1,250", where Django's Arabic formats
give the Maghreb's and Europe's "12,5" and "1.250"."""

DATETIME_FORMAT = "j F، Y، g:i A"
SHORT_DATETIME_FORMAT = "d\u200f/m\u200f/Y g:i A"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
