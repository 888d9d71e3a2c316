from django.conf import settings


def site(request):  # type: ignore[no-untyped-def]
    return {"SITE_URL": settings.SITE_URL, "DEBUG": settings.DEBUG}
