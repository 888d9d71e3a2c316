"""Slovak dates with the month in the genitive: "30. novembra 2026", not "30. november".

Django's Slovak formats use "F" (the nominative) after the day. "E" is the month's
"alt. month" name, which Slovak needs in the genitive, so our catalogue gives those
(Django's own Slovak "alt. month" names are nominative too). The names are marked
here so that makemessages keeps them; the other languages' catalogues repeat Django's
own forms for them.
"""

from django.utils.translation import pgettext_lazy

DATE_FORMAT = "j. E Y"
DATETIME_FORMAT = "j. E Y G:i"
MONTH_DAY_FORMAT = "j. E"

GENITIVE_MONTHS = (
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)
