"""What the hand-written statements of the busiest requests share (nights/views.py): a
field's column, and a model's columns in a row read back into an instance as the ORM
would build it (its converters: JSON decoded, SQLite's dates parsed…). They exist
because the ORM took longer to build these statements than the database to run them
(bench/README.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Field, Model
from django.db.models.expressions import Col


def column(field: Field[Any, Any]) -> str:
    """`field`'s column, quoted."""
    return str(connection.ops.quote_name(str(field.column)))


def converters(field: Field[Any, Any], alias: str) -> tuple[Col, list[Callable[..., Any]]]:
    """`field` read as `alias`.column, and what the backend applies to the value read
    (an empty list: it comes ready)."""
    col = field.get_col(alias)
    return col, connection.ops.get_db_converters(col) + col.get_db_converters(connection)


class RowPart:
    """One model's columns in a hand-written query's rows: where they start, and how to
    turn them into an instance (the converters Django's compiler would apply)."""

    def __init__(self, model: type[Model], alias: str, start: int) -> None:
        self.model, self.alias, self.start = model, alias, start
        self.fields = model._meta.concrete_fields
        self.names = [field.attname for field in self.fields]
        self.end = start + len(self.fields)
        self.converters: list[tuple[int, list[Callable[..., Any]], Col]] = []
        for index, field in enumerate(self.fields):
            col, found = converters(field, alias)
            if found:
                self.converters.append((index, found, col))

    def columns(self) -> str:
        return ", ".join(f"{self.alias}.{column(field)}" for field in self.fields)

    def build(self, row: Sequence[Any]) -> Model:
        values = list(row[self.start : self.end])
        for index, found, col in self.converters:
            value = values[index]
            for converter in found:
                value = converter(value, col, connection)
            values[index] = value
        return self.model.from_db(connection.alias, self.names, values)
