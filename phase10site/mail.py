"""The embedded default email backend: every message lands in var/mail/ as a
file a developer can open, and is echoed to the console."""

import sys
from collections.abc import Sequence

from django.core.mail import EmailMessage
from django.core.mail.backends.filebased import EmailBackend as FileBackend


class FileAndConsoleBackend(FileBackend):
    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = super().send_messages(email_messages)
        for message in email_messages:
            sys.stdout.write(f"[mail] to {', '.join(message.to)}: {message.subject}\n")
        return sent
