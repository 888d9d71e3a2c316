"""Helpers for the game night tests: drive game nights through the web layer."""

from collections.abc import Iterable, Mapping

from django.urls import reverse

from games.models import Game


def start_night(
    client,
    guests: Iterable[str] = ("Bob", "Carol"),
    *,
    me: bool = True,
    dealer: int = 0,
    phases: str = "all",
    custom: str = "",
    advance: str = "standard",
    name: str = "",
) -> Game:
    """POST the new-game form: seat 0 is the logged-in user (if `me`), then the guests."""
    user = client.get(reverse("games:night_create")).context["form"].known
    data = {"name": name, "first_dealer": dealer, "phases": phases, "custom_phases": custom}
    data["advance"] = advance
    row = 0
    if me:
        data["player_0"] = next(iter(user))  # the form lists the user's own Player first
        row = 1
    for guest in guests:
        data[f"guest_{row}"] = guest
        row += 1
    response = client.post(reverse("games:night_create"), data)
    assert response.status_code == 302, response.context["form"].errors
    return Game.objects.get(public_id=response.url.rstrip("/").split("/")[-1])


def round_data(
    game: Game,
    *,
    went_out: int | None,
    points: Iterable[int | str],
    completed: Iterable[int] | Mapping[int, int] = (),
    version: int | None = None,
) -> dict[str, object]:
    """Form data for one round; `completed` is seats, or seat -> phase in pick-a-phase."""
    game.refresh_from_db()
    data: dict[str, object] = {"version": game.version if version is None else version}
    if went_out is not None:
        data["went_out"] = went_out
    for seat, value in enumerate(points):
        data[f"points_{seat}"] = value
    if isinstance(completed, Mapping):
        for seat, phase in completed.items():
            data[f"completed_{seat}"] = phase
    else:
        for seat in completed:
            data[f"completed_{seat}"] = "on"
    return data


def post_round(client, game: Game, *, htmx: bool = False, **kwargs):  # type: ignore[no-untyped-def]
    headers = {"HX-Request": "true"} if htmx else {}
    url = reverse("games:night_add_round", args=[game.public_id])
    return client.post(url, round_data(game, **kwargs), headers=headers)


def edit_round(  # type: ignore[no-untyped-def]
    client, game: Game, number: int, *, confirm: bool = True, htmx: bool = False, **kwargs
):
    """POST a correction of round `number`. A correction of a finished night is saved
    only by a POST that confirms it (`confirm=1`, what the confirmation panel sends);
    `confirm=False` is the first POST, which only shows what the correction would change."""
    url = reverse("games:night_edit_round", args=[game.public_id, number])
    data = round_data(game, **kwargs)
    if confirm:
        data["confirm"] = "1"
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(url, data, headers=headers)


def undo(
    client, game: Game, *, confirm: bool = True, htmx: bool = False, version: int | None = None
):  # type: ignore[no-untyped-def]
    """POST "Undo"; on a finished night only a confirming POST (`confirm=1`) undoes."""
    game.refresh_from_db()
    data: dict[str, object] = {"version": game.version if version is None else version}
    if confirm:
        data["confirm"] = "1"
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse("games:night_undo", args=[game.public_id]), data, headers=headers)


def seats(game: Game) -> list:  # type: ignore[type-arg]
    return list(game.seats.select_related("player").order_by("position"))


def errors_of(response) -> str:  # type: ignore[no-untyped-def]
    return response.content.decode()


def tiebreak(client, game: Game, *, winner: int, htmx: bool = False):  # type: ignore[no-untyped-def]
    game.refresh_from_db()
    headers = {"HX-Request": "true"} if htmx else {}
    url = reverse("games:night_tiebreak", args=[game.public_id])
    return client.post(url, {"version": game.version, "winner": winner}, headers=headers)
