"""Who wrote under which @username in which chat, as this process saw it.

The Bot API has no way to turn a @username into a user: it only tells a bot about the
people whose messages it receives. `/rating @ana` is answered from those: the usernames of
the people seen writing in the same group since this process started. A @username seen
in another group only, or never, names nobody here, and is refused in words.
"""

from collections import OrderedDict

from telegram import Message

# Chats × usernames remembered at most; the oldest seen go first.
REMEMBERED = 50_000


class Usernames:
    def __init__(self, size: int = REMEMBERED) -> None:
        self.size = size
        self._seen: OrderedDict[tuple[int, str], int] = OrderedDict()

    def saw(self, message: Message) -> None:
        user = message.from_user
        if user is None or user.is_bot or not user.username or message.sender_chat:
            return
        key = (message.chat_id, user.username.lower())
        self._seen[key] = user.id
        self._seen.move_to_end(key)
        while len(self._seen) > self.size:
            self._seen.popitem(last=False)

    def find(self, chat_id: int, username: str) -> int | None:
        return self._seen.get((chat_id, username.removeprefix("@").lower()))
