"""Sentences that calibrate an embedder's similarity floors (``domain.calibration``).

Written for this purpose, about everyday people, work and plans, like the facts a memory
holds; nothing here comes from a benchmark the floors are later scored on.

* ``QUESTIONS``: a question a user might ask, and the fact that answers it, in other words.
* ``SAME_ATTRIBUTE``: two facts about the same thing of the same subject, a restatement, an
  update or a contradiction: what dedup must put in front of its judge.

Pairs of one list with the other items of that list are unrelated by construction.
"""

from __future__ import annotations

QUESTIONS: tuple[tuple[str, str], ...] = (
    ("What is my email?", "Alice's email is alice@example.com"),
    ("Where do I work?", "Alice works at Acme Corp as an engineer"),
    ("When is my dentist appointment?", "Alice has a dentist appointment on March 3 at 10am"),
    ("What is my daughter called?", "Alice's daughter is named Maya"),
    ("How much is the festival budget?", "The Mars festival budget is 50000 dollars"),
    ("Which city do I live in?", "Alice lives in Lyon, France"),
    ("What food am I allergic to?", "Bob is allergic to peanuts"),
    ("What's my phone number?", "Bob's phone number is 555 0100"),
    ("Who is handling the sound system?", "Priya is in charge of audio for the concert"),
    ("When does the conference start?", "The developer conference opens on June 12"),
    ("What car do I drive?", "Carlos drives a blue Toyota Corolla"),
    ("Do I have any pets?", "Carlos has two cats named Pixel and Byte"),
    ("What language am I learning?", "Dana is studying Japanese in the evenings"),
    ("How do I like my coffee?", "Dana takes her coffee black with no sugar"),
    ("Which team do I support?", "Evan is a lifelong fan of Liverpool FC"),
    ("When is my birthday?", "Evan was born on 14 February 1990"),
    ("What instrument do I play?", "Farah plays the cello in a community orchestra"),
    ("Where did I go on holiday?", "Farah spent last summer hiking in Norway"),
    ("What is the project deadline?", "The website redesign is due on 30 September"),
    ("Which database does the app use?", "The billing service stores its data in PostgreSQL"),
    ("Who is my manager?", "Gil reports to Hannah, the head of design"),
    ("What is my shoe size?", "Gil wears size 44 shoes"),
    ("What did the doctor prescribe?", "Ines was prescribed amoxicillin for ten days"),
    ("How many kids do I have?", "Ines has three children"),
    ("What degree do I have?", "Jonas holds a master's degree in chemistry"),
    ("Which airline do I prefer?", "Jonas always flies with KLM when he can"),
    ("What is the wifi password?", "The office wifi password is sunflower42"),
    ("When does the store open?", "The bakery opens at 7am on weekdays"),
    ("What's my favourite movie?", "Kenji's favourite film is Spirited Away"),
    ("What diet am I on?", "Kenji has been vegetarian since 2019"),
    ("Where is the team meeting?", "The weekly sync takes place in room 4B"),
    ("What is my budget for the trip?", "Lena plans to spend at most 2000 euros on the trip"),
    ("How tall am I?", "Lena is 172 centimetres tall"),
    ("What sport do I do?", "Marco goes rock climbing twice a week"),
    ("What is my wife's name?", "Marco is married to Sofia"),
    ("When is rent due?", "Nadia pays her rent on the first of every month"),
    ("What was my first job?", "Nadia started her career as a barista in Seattle"),
    ("Which bank do I use?", "Omar banks with a small credit union"),
    ("What is my blood type?", "Omar's blood type is O negative"),
    ("What time do I wake up?", "Paula gets up at 5:30 every morning to run"),
)

SAME_ATTRIBUTE: tuple[tuple[str, str], ...] = (
    ("Alice works at Acme Corp", "Alice works at Globex as a designer"),
    ("Alice works at Acme Corp", "Alice is employed by Acme Corporation"),
    ("Alice's email is alice@example.com", "Alice's email address is alice@example.com"),
    ("Alice's email is alice@example.com", "Alice now uses alice@newmail.org for email"),
    ("The Mars festival budget is 50000 dollars", "The Mars festival budget is now 60000 dollars"),
    ("Bob lives in Berlin", "Bob moved from Berlin to Munich last month"),
    ("Bob is allergic to peanuts", "Bob has a peanut allergy"),
    ("Carlos drives a blue Toyota Corolla", "Carlos sold his Corolla and bought a Tesla"),
    ("Carlos has two cats", "Carlos has three cats now"),
    ("Dana prefers short answers", "Dana would like longer, detailed answers"),
    ("Dana is studying Japanese", "Dana is learning Japanese"),
    ("Evan's birthday is 14 February", "Evan was born on February 14"),
    ("Evan supports Liverpool FC", "Evan is a Liverpool supporter"),
    ("Farah plays the cello", "Farah switched from cello to violin"),
    ("Farah's phone number is 555 0199", "Farah's new phone number is 555 0142"),
    (
        "The website redesign is due on 30 September",
        "The website redesign deadline moved to 15 October",
    ),
    ("The billing service uses PostgreSQL", "The billing service was migrated to MySQL"),
    ("Gil reports to Hannah", "Gil's manager is Hannah"),
    ("Gil reports to Hannah", "Gil now reports to Ivan after the reorganisation"),
    ("Ines has three children", "Ines has 3 kids"),
    ("Jonas holds a master's degree in chemistry", "Jonas has an MSc in chemistry"),
    ("Jonas prefers KLM", "Jonas prefers to fly with Lufthansa now"),
    ("The office wifi password is sunflower42", "The office wifi password was changed to tulip77"),
    ("The bakery opens at 7am", "The bakery now opens at 8am"),
    ("Kenji's favourite film is Spirited Away", "Kenji loves the movie Spirited Away most"),
    ("Kenji is vegetarian", "Kenji became vegan this year"),
    ("The weekly sync is in room 4B", "The weekly sync moved to room 2A"),
    ("Lena's trip budget is 2000 euros", "Lena raised her trip budget to 2500 euros"),
    ("Marco goes rock climbing twice a week", "Marco climbs two times every week"),
    ("Marco is married to Sofia", "Marco's wife is Sofia"),
    ("Nadia pays rent on the first of the month", "Nadia's rent is due on the 1st"),
    ("Omar banks with a credit union", "Omar moved his account to a big national bank"),
    ("Paula wakes up at 5:30", "Paula now sleeps in until 7"),
    ("Priya is in charge of audio", "Priya handles the sound for the concert"),
    (
        "The developer conference opens on June 12",
        "The developer conference was postponed to July 3",
    ),
    ("Quinn speaks Spanish fluently", "Quinn is fluent in Spanish"),
    ("Rosa's favourite colour is green", "Rosa's favourite colour is now purple"),
    ("Sam lives alone", "Sam moved in with his partner"),
    ("Tara's flight leaves at 9:40", "Tara's flight was rescheduled to 11:15"),
    ("Uma works remotely on Fridays", "Uma works from home every Friday"),
)
