"""Arabic date and time: Django's Arabic formats have no DATETIME_FORMAT, so a deadline
fell back to the English "Dec. 1, 2026, 5:08 p.m." order. Day, month, year, then the
time, as the Arabic DATE_FORMAT and TIME_FORMAT already write them."""

DATETIME_FORMAT = "j F، Y، g:i A"
SHORT_DATETIME_FORMAT = "d\u200f/m\u200f/Y g:i A"
