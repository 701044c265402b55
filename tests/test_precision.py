"""Incident precision: acts told in passing, as a kind, or as law are not incidents.

Each rule of nlp/incidents/passing.py has sentences of its own here (none from the
fixtures), with controls that must still yield their incident. Then the incident figures
of `corroborator eval` on the precision sets (tests/fixtures/precision: dev, and a held-out
part measured once, after the rules were written), the older held-out and blind sets and
the seeds, each with a floor just under the figure measured when the rules were done.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from conftest import SHARED, gold_set_texts, run_cli
from corroborator.nlp.pipeline import DocContext, default_stages, load_nlp

FIXTURES = Path(__file__).parent / "fixtures"
PRECISION = FIXTURES / "precision"


@pytest.fixture(scope="module")
def types_of():
    nlp = load_nlp()
    stages = default_stages()

    def run(text: str) -> list[str]:
        ctx = DocContext(doc=nlp(text))
        for stage in stages:
            stage(ctx)
        return sorted(i.type for i in ctx.extraction.incidents)

    return run


NOT_INCIDENTS = {
    "such": [
        "Such executions of prisoners, the lawyer said, are now common along the front.",
        "Investigators have looked into many such abductions in the province.",
        "The militia ran such torture cellars in most of the towns it held, the report said.",
    ],
    "every_one_of_a_kind": [  # present or threatened, against every one of a kind
        "The colonel says his gunners shell every farm that shelters fighters.",
        'A pro-war channel posted that "each school used as a base will be flattened."',
        '"Any farm that feeds the rebels will be torched," the leaflet said.',
    ],
    "retold": [
        "Residents returned to the town a month after the massacre in Tadamon, when soldiers "
        "shot dozens of men.",
        "The town had been quiet since the bombing of the theatre in Mariupol that killed hundreds.",
        "Aid workers arrived days after the Yahidne detentions were first reported.",
        "Militias have been blamed for massacres, as in Kasika in 2019, when villagers were "
        "hacked to death.",
        "Residents still talk about 2014, when a rocket hit the bus station and killed 12.",
    ],
    "earlier_year": [
        "Hamlets near Djibo were besieged by the militants for weeks in early 2021.",
        # what a when-clause after a year tells, and what is told with it
        "The town was among six in the district attacked in March 2019, when 40 people died.",
        "Khayan was burned by soldiers in May 2022, when most houses were destroyed and two "
        "old men died in their homes.",
        "Last year, government planes bombed a clinic in Kafr Zita and a bakery in Hama.",
        "The region has not recovered from the 2015 shelling of Debaltseve.",
        "Earlier this year a rocket attack on a crowded square in Kramatorsk killed 11 people.",
    ],
    "kind_of_target": [
        "The air force has been accused of bombing bakeries and water stations for years.",
    ],
    "inquiry_topic": ["Highlights from a commission of inquiry into abuses in Tigray"],
    "condition_of_law": [
        "Murder may amount to a crime against humanity when it is part of a widespread attack "
        "on civilians, the lawyers wrote.",
    ],
    "done_by_anyone": [
        "The ministry promised to jail any officer found to have tortured detainees.",
    ],
    "reputed": [
        "Gunmen in the hills are known to kidnap farmers and to burn their granaries.",
        "The brigade is widely accused of looting and burning villages.",
    ],
    "tally": [
        "The ministry counted 58 attacks on health facilities last month.",
        "Investigators found more than 30 places of detention in the region after its liberation.",
    ],
    "accident_killed": [
        "Nine passengers were killed on Monday when a minibus collided with a truck near Gao.",
        "Three children died in a house fire caused by a faulty stove, police said.",
    ],
    "hearsay": [
        "Rumours that militiamen had burned the clinic in Bunia spread quickly but were false.",
        "Posts shared on Telegram on Sunday claimed that soldiers had shot two shepherds "
        "near Marinka.",
        "Messages circulating on WhatsApp said that rebels had burned the clinic in Walikale.",
        "Reports circulated on social media that drones had struck the hospital in Kadugli.",
        "Posts on social media claiming that troops shelled the market were untrue, officials said.",
    ],
    "habitual_present": ["The fighters kill and rape without fear of punishment."],
    "imagined": ["Imagine that tonight a missile kills thirty people in a crowded station."],
    "retold_where": [
        "The worst such raid remains the one on Kumbo in June 2022, where police said 30 "
        "villagers were killed.",
    ],
    "retold_dated": [
        "Farmers fear a repeat of what happened in Kerem in March 2023, when raiders killed 40 "
        "people.",
        "The town was last attacked in September 2021, when gunmen killed 12 traders.",
    ],
    "accused_of_a_kind": [
        "The militia has been accused of killing village chiefs it regards as informers.",
    ],
    "accident": [
        "A 70-year-old woman died when a gas cylinder exploded in her flat, police said.",
        "A fire broke out at the fuel depot near the port overnight, but no one was hurt.",
        "Two bakers died on Monday when a gas pipe exploded in a bakery in Saltivka.",
        "The blast residents heard was a fire at a timber yard, and no one was hurt.",
        "A fire that gutted a row of kiosks at the bus station was caused by a short circuit.",
        "Sappers carried out a controlled detonation of an unexploded rocket in a courtyard.",
    ],
    "no_victim_object": ["No hospital was hit on Sunday, the army said."],
    "law_sentence": [
        "Under the statute, torture, rape and enslavement are crimes against humanity.",
        "Rape committed as part of a widespread attack against a civilian population is a crime "
        "against humanity.",
    ],
    "inside_a_recalled_act": [
        "Families met on Sunday to mark the anniversary of the 2019 strike on a wedding in which "
        "30 guests were killed.",
    ],
    "means_of_a_foretold_act": [
        "Further drone strikes could cause heavy casualties, the agency warned."
    ],
    "generic": [
        # an ongoing kind of act, its done-to a bare plural with no place or day
        "They are also killing and abducting men, the refugees said.",
        "Aid workers cannot reach the valley while villages are being shelled.",
        "Government jets bomb schools and clinics in the valley every week, residents say.",
        "Militants who kidnap aid workers will be hunted down, the general said.",
        "The militia has been accused of rapes and killings across the province.",
    ],
    "legal": [
        "Enforced disappearance is defined in international law as the arrest of a person by "
        "agents of the state.",
        "Shelling residential areas without a military target is prohibited under humanitarian law.",
        "Deporting children from an occupied territory may constitute a war crime.",
    ],
    "predicted": [
        "If the army enters the valley, there will be a massacre, the village head warned.",
    ],
    "name": ["She testified before the Committee against Torture in Geneva."],
    "running_total": [
        "Hundreds of detainees have been tortured since the junta took power, lawyers say.",
        "Gunmen have abducted dozens of farmers in the state over the past two years.",
        "The agency says more than 140 of its clinics have been shelled since May 2023.",
    ],
    "period_tally": [
        "2,050: civilians killed in the two countries in the first half of the year, per ACLED.",
        # the count on the act noun itself, or on the people a participle tells of
        "Between April and September, the network recorded 2,310 civilian deaths in Darfur.",
        "2,400 civilians killed in the Sahel in the first half of the year, the monitor says.",
        "Between January and June, the monitoring group recorded the killing of 412 civilians "
        "across the province.",
        "More than 2,000 civilians were killed in the three countries in the first half of the "
        "year, a monitoring group estimates.",
        "Some 150 people were kidnapped in the district over the same period.",
        "Clinics in the district reported 38 cases of sexual violence.",
        # days named with the months ('between 1' is parsed as a quantity)
        "Between 1 February and 30 April, the observers documented the killing of 164 "
        "civilians in the province.",
        # a period singled out of a running count, whatever the figure
        "Officials say 48 civilians were killed in the two districts in September alone.",
        # a toll spread over a region, a span or several acts, whatever the figure
        "The governor said 23 civilians were killed across the Sumy region last month.",
        "Russian strikes killed 168 civilians across Ukraine in October, the UN mission said.",
        "At least 19 people were reported killed in the attacks the mission followed this week.",
        "Nine civilians were killed in the province over the same month, the council said.",
    ],
    "shielded": [
        "The agency asked both armies to protect clinics from attack.",
        "Peacekeepers were deployed to shield the camps against attack.",
    ],
    "negated_subject": [
        "Residents said that no shell had struck the clinic that week.",
        "State media said an air strike hit a market in Zalingei; residents said no strike "
        "took place.",
    ],
    "share_reporting": [  # a survey's figure, however the parser reads 'report'
        "The ombudsman says about eight in ten prisoners freed this year report torture.",
        "More than 70 per cent of the women interviewed describe beatings, the group said.",
    ],
    "accused_of_a_kind_of_means": [
        "Kyiv has long accused Moscow of using glide bombs to terrorise civilians in Kharkiv.",
    ],
    "everything_a_target": ['"Every car on this road is a target," a Russian channel posted.'],
    "natural_disaster": [  # the killer is the quake, however its date is parsed
        "Families displaced by the earthquake of March 2025, which killed more than 3,700 "
        "people, still live in tents.",
    ],
    "household_accident": [
        "In Bohodukhiv, a man died when a gas heater exploded in his flat; police said "
        "there was no sign of shelling.",
    ],
    "law_forbids_a_kind": [
        "The Third Geneva Convention forbids torture of prisoners of war.",
    ],
    "many_settlements": [  # a day's roundup over a region, each place its own act
        "Russian forces shelled or bombed 17 settlements in the region over the past 24 "
        "hours, the governor said.",
        "The military has burned villages across Sagaing since 2021.",
    ],
    "compared_place": [
        "Al-Kordi lies in the same locality as Shag Alnom, where more than 200 people were "
        "killed in a single day in July.",
    ],
    "law_of_a_kind": [
        "A commission concluded that Russian drone attacks on civilians in the Kherson region "
        "amounted to crimes against humanity.",
    ],
    "fiction_or_drill": [
        "The theatre premiered a feature film in which an occupying officer shoots a teacher.",
        "Pupils are reading a novel by Anna Kravets in which soldiers burn a village market.",
        "The festival opens with a novel by the exiled poet Ilya Marchenko in which a platoon "
        "shoots a ferryman.",
        'Tonight the station shows the second episode of its new drama "Checkpoint", in which '
        "occupying soldiers shoot a teacher in front of her school.",
        "Rescuers practised on volunteers playing the wounded of a simulated strike on a school.",
    ],
    "private_motive": [
        "A court in Shostka jailed a man who stabbed his brother to death during a quarrel.",
        "In Izium, police detained a man who stabbed his neighbour during a quarrel.",
        "Police in Kherson said a pensioner was killed in a robbery on Tuesday.",
    ],
    "polarity_item": [  # 'anyone' lives under a negation, question or condition
        "I never saw anyone die in that camp, the former prisoner said.",
        '"They shoot anyone who goes out after dark," the mayor wrote on Facebook.',
    ],
    "unsourced_reports": [
        "There were also reports on Telegram that the market in the town had been shelled.",
    ],
    "named_by_date": [
        "Officials compared it with the bombing of 3 March 2022, in which 20 people died at "
        "the station.",
    ],
    "harmless_landing": [
        "Odesa itself was hit by three drones overnight; nobody was injured, the governor said.",
        "A second shell fell minutes later in a garden behind the school.",
        "A second rocket came down in a field outside the village; no one was hurt, officials "
        "said.",
        "On Monday a mortar round fell beside the clinic in Tal Abyad, but nobody was injured.",
    ],
    "routine": ["Shelling of the district has become routine since the front moved closer."],
    "charge_not_brought": [
        "Prosecutors have not charged the commander with sexual violence.",
        "He was never accused of torture, his lawyer said.",
    ],
    "illness": [
        "Nurses at the camp said 19 people had died of measles since the rains began.",
        "Two detainees died from an infection last winter, the family said.",
        "Health workers said cholera had killed at least 25 people in the camp since June.",
        "The clinic was damaged in the February earthquake, which killed more than 200 people.",
        "The village headman died of a heart attack in March, his son said.",
        "In both camps, infants are dying of malnutrition, the nurses said.",
        "A shepherd and his flock were killed by lightning on the ridge above Tabqa.",
        "A boy from the camp died from a snake bite on Sunday, the clinic said.",
    ],
    "exchange_of_fire": [
        "Marines traded mortar fire with separatist positions across the river overnight.",
        "Soldiers exchanged fire with the rebels near the bridge for two hours.",
    ],
    "disproved": [
        "Initial reports of a massacre at the quarry turned out to be false, the police said.",
        "Claims that a drone had hit the maternity clinic proved unfounded.",
        # an interviewer relays a rumour; the answer says it did not happen
        "Q: Some reports said soldiers also shot the village imam.\n\nA: I asked his wife. "
        "That is not true.",
        "Q: Some reports said soldiers also shot the village imam.\n\nA: No. He left for the "
        "city a week before.",
    ],
    "combat_claim_hedged": [  # fighters killed in combat, the claim hedged after it
        "Insurgents said they had killed nine troops in an ambush near Mindat; this could not "
        "be confirmed.",
    ],
    "held6": [  # kinds read off held6 (session 21)
        "Nobody was killed in the camp while I was there, as far as I know.",
        "Correction: at 10:20 we reported, citing a local journalist, that a second shelter "
        "had been hit in Deir al-Balah.",
        "The prohibition of torture is absolute under international law.",
        "Police officers killed eight gang members in an exchange of fire near the market.",
        "Two soldiers were killed in a firefight with rebels near Goma.",
    ],
    "habitual_history": [
        "The port has been shelled almost daily since the summer, the mayor said.",
        "Villages along the border have been raided and burned repeatedly since 2023.",
    ],
    "routine_attr": ["Extortion at checkpoints has become a routine danger for traders."],
    "as_a_tactic": [
        "The militias have turned abduction into a tool of intimidation in the valley.",
        "Human rights groups say the army uses starvation as a method of war.",
    ],
    "own_military_target": [
        "The defence ministry said its forces had struck an ammunition depot near Bakhmut.",
        "The army said it had hit a militant headquarters in the town and took care to spare "
        "civilians.",
    ],
    "commemorated": [
        "Friday was the tenth anniversary of the massacre in Beni on 13 August 2016, which "
        "killed 51 people.",
        # the clause hung on the act's place, however parsed
        "This week was also the anniversary of the drone attack on the market in Hpa Pun, "
        "Karen State, in April 2023, in which at least nine traders were killed.",
    ],
    "told_before": [
        "The commission is still examining the shelling of a clinic in Avdiivka described in "
        "its June report.",
    ],
    "held_already": [
        "The minister said talks would continue until the remaining hostages were freed.",
        "Officials fear the group will move its captives across the border.",
    ],
    "charged_kind": [
        "The court in Kalemie is trying two militia leaders on charges of war crimes by "
        "murder, rape and pillage.",
    ],
    "enemy_combat": [
        "Both sides claimed to have killed dozens of enemy fighters in the battle for the hill.",
        "The brigade said it had killed 40 enemy soldiers near Robotyne.",
    ],
    "not_the_first_time": ["It was not the first time the clinic had been shelled."],
    "law_condition": [  # the definite act of a definition points back into it
        "Extermination, when committed as part of a systematic attack with knowledge of the "
        "attack, constitutes a crime against humanity.",
    ],
    "negated_noun": [
        "Both armies said that neither strike had caused civilian casualties.",
        "The general staff described the night's shelling without reporting any casualties.",
        "Both ministries gave their accounts, but neither reported civilian deaths.",
    ],
}

STILL_INCIDENTS = [
    ("Soldiers burned every house in Kyaung Kone on Monday.", ["other"]),  # one past act
    (  # 'in which' after the report's own act tells more of it
        "Soldiers raided the market in Let Yet Kone on Monday, in which at least 11 traders "
        "were killed.",
        ["killing_civilians"],
    ),
    (  # an answer that bears out what the question relays
        "Q: Some reports said soldiers also shot the village imam.\n\nA: Yes. There was no "
        "doctor to help him.",
        ["killing_civilians"],
    ),
    (  # a hedge told after the act is no supposition
        "Gunmen shot dead 14 villagers in Kadaga, though the army could not confirm it.",
        ["killing_civilians"],
    ),
    (  # a bare film is as often footage of a real act
        "The SBU released a film in which Russian soldiers shoot a surrendering prisoner.",
        ["killing_captives"],
    ),
    (  # 'playing' is no play
        "Boys were playing football in a yard where Russian soldiers shot two of them dead.",
        ["killing_civilians"],
    ),
    (  # a real act told in a clause on a series of them, or filmed
        "It was the latest in a series of strikes in which Russian drones killed civilians "
        "in Kherson; a video in which soldiers shoot a prisoner was verified.",
        ["attack_populated_area", "killing_captives"],
    ),
    (  # a few villages, and a toll in one of them
        "Russian forces shelled three villages on Monday, killing two people in Zolochiv.",
        ["attack_populated_area"],
    ),
    (  # an act the law forbids, told as done
        "Guards tortured the prisoners of war in the basement; the convention forbids it.",
        ["torture_mistreatment"],
    ),
    (  # an ongoing act with its place
        "Soldiers are shooting civilians in the streets of Kupiansk, a resident told us.",
        ["killing_civilians"],
    ),
    (  # one massacre over two days
        "Soldiers executed at least 30 men in the village of Diafarabe over two days in March.",
        ["killing_civilians"],
    ),
    (  # what others say the army struck
        "Residents said the army had struck a school near Kani, killing nine children.",
        ["attack_populated_area"],
    ),
    (  # a military target in villagers' account is their claim
        "Villagers said soldiers had bombed a checkpoint where civilians queued.",
        ["attack_populated_area"],
    ),
    (  # hostages taken here and now
        "Gunmen took 12 hostages from a bus near Gressier on Monday.",
        ["abduction_detention"],
    ),
    (  # a relative clause on an act of the news
        "Rebels attacked the market in Beni on 3 May, which killed nine traders.",
        ["killing_civilians"],
    ),
    (  # a charge that names one act
        "He is charged with the murder of two farmers in Ituri in March.",
        ["killing_civilians"],
    ),
    (  # enemies who surrendered are captives
        "Soldiers shot two captured enemy soldiers after they surrendered.",
        ["killing_captives"],
    ),
    (  # the first time is this time
        "It was the first time the soldiers had fired at the crowd, killing two students.",
        ["killing_civilians"],
    ),
    (  # a perfect without repetition tells one act
        "Russian forces have shelled the market in Kupiansk, killing three people.",
        ["attack_populated_area"],
    ),
    (  # a witness who recalls an attack tells it
        "A teacher recalled the attack on the school in Izium, in which two pupils were killed.",
        ["killing_civilians"],
    ),
    (  # a video's content is evidence, wherever it circulates
        "A video shared on Telegram shows soldiers shooting two shepherds near Bakhmut.",
        ["killing_civilians"],
    ),
    (  # a named source's claim is a claim, wherever posted
        "The regional governor wrote on Telegram that a missile had killed four people in "
        "Kramatorsk.",
        ["attack_populated_area"],
    ),
    (
        "The governor's message on Telegram said that a missile had killed four people in "
        "Kramatorsk.",
        ["attack_populated_area"],
    ),
    (  # the negated subject is the one who saw, not the victims
        "Nobody saw the gunmen who shot dead three farmers in Mora on Sunday.",
        ["killing_civilians"],
    ),
    (  # a finding that lists acts, not the law on them
        "The inquiry found that all parties had committed violations, including sexual "
        "violence against women in Adigrat in 2021.",
        ["sexual_violence"],
    ),
    (  # a denial by the accused party is kept with the claim it denies
        "Troops shot dead four farmers in Velykyi Burluk on Tuesday, the governor said. Moscow "
        "said the claims were false.",
        ["killing_civilians"],
    ),
    (  # died of wounds: an act's victims
        "Gunmen attacked the bus on Sunday; two passengers later died of their wounds.",
        ["killing_civilians"],
    ),
    (  # victims named by their trade are civilians
        "Gunmen killed four traders on the road to the market in Kolo on Monday, police said.",
        ["killing_civilians"],
    ),
    (
        "Militiamen abducted two gold miners from the site near Mongbwalu on Friday.",
        ["abduction_detention"],
    ),
    (  # a blaze the shelling set is still the shelling's
        "Shells hit the market in Kolo on Sunday and fire spread through the stalls, killing "
        "four traders.",
        ["attack_populated_area"],
    ),
    (  # an outbreak of fighting is no illness
        "The outbreak of fighting in Kolo killed at least 30 civilians on Monday, the UN said.",
        ["killing_civilians"],
    ),
    (  # shooting without warning is still shooting
        "Soldiers opened fire on the queue without warning, killing five people.",
        ["killing_civilians"],
    ),
    (  # a range of victims, which the parser reads as 'between' + object
        "Soldiers killed between 300 and 400 civilians in the town in March, the mayor said.",
        ["killing_civilians"],
    ),
    (  # a charge not brought for one act that happened
        "Police have not accused anyone of the killing of the two journalists in Kpata on Monday.",
        ["killing_civilians"],
    ),
    (
        "Soldiers shot five men in the village of Kolo on Monday, witnesses said.",
        ["killing_civilians"],
    ),
    (
        "Two shells hit a market in Avdiivka on Tuesday, killing seven shoppers.",
        ["attack_populated_area"],
    ),
    (
        "Police detained 12 students in Mandalay on Friday and beat them in custody.",
        ["abduction_detention", "torture_mistreatment"],
    ),
    (
        "After the shelling stopped, fighters abducted three nurses from the hospital in Tawila.",
        ["abduction_detention"],
    ),
    (
        "Soldiers had detained 15 civilians at the checkpoint, and their families have not "
        "heard from them since.",
        ["abduction_detention"],
    ),
    (
        "Soldiers have detained 15 civilians at the checkpoint since Monday, their families say.",
        ["abduction_detention"],
    ),
    (
        "The drone strike killed four people at a bus stop in Kherson, officials said.",
        ["attack_populated_area"],
    ),
    (
        "A mortar round hit a minibus outside Hulyaipole on Friday, killing three passengers.",
        ["attack_populated_area"],
    ),
    (
        "The attack on the bakery in Kafr Zita may amount to a war crime, the lawyers wrote.",
        ["attack_populated_area"],
    ),
    (
        "Rebels executed six farmers after a raid on Mbau, the governor said.",
        ["killing_civilians"],
    ),
    (
        "Two air strikes hit the market in Kafr Nabl on Monday, killing nine shoppers.",
        ["attack_populated_area"],
    ),
    (
        "Gunmen took around 60 hostages from a church in Kajuru on Sunday.",
        ["abduction_detention"],
    ),
    (
        "Soldiers have been accused of killing five farmers in Kolo on Monday.",
        ["killing_civilians"],
    ),
    (
        "A shell landed in a field outside Kupiansk on Monday, killing two farmers.",
        ["killing_civilians"],
    ),
    (  # hurting no one elsewhere does not spare this strike
        "A missile hit the hospital in Bilozerka, wounding two nurses; no one was hurt in the "
        "second strike.",
        ["attack_populated_area"],
    ),
    (  # a span of days is one act's time, not a monitor's period
        "Soldiers shot dead 130 men in the village of Moura over five days in March, the "
        "report says.",
        ["killing_civilians"],
    ),
    (
        "Rebels killed at least 131 civilians in Kishishe between 29 and 30 November.",
        ["killing_civilians"],
    ),
    (
        "In the weeks that followed, soldiers detained more than 100 men in the township.",
        ["abduction_detention"],
    ),
    (
        "Over the weekend, militiamen abducted 140 pupils from a school in Kuriga.",
        ["abduction_detention"],
    ),
    (  # an authored report is a source, not hearsay
        "A report by the UN mission says soldiers killed 14 villagers in Kumbo on Monday.",
        ["killing_civilians"],
    ),
    (
        "The shelling was heavy and lasted all night, residents of Kupiansk said.",
        ["attack_populated_area"],
    ),
    (  # 'family' names the house's owners; the target is a building
        "A missile hit the Haddad family house in Kfar Kila on Tuesday, killing four.",
        ["attack_populated_area"],
    ),
]

CAPTIVES = [
    # the victims' surrender or binding, in their own clause or the sentence before
    "Two marines came out of the basement and surrendered, and were then shot in the yard.",
    'His brother stood with his hands raised. "They fired at him anyway," she said.',
    "Guards tied up the four men behind the school before they were shot.",
]
NOT_CAPTIVES = [
    # the cue is about someone else: the speaker, or another group
    "A captured sergeant described how his platoon commander was killed by shelling.",
    "Officials said 40 soldiers were killed in the fighting and 12 others surrendered.",
]


ON_FIRE = [
    # homes on fire are burned homes ('other'), not gunfire at a populated place
    "Settlers set five houses on fire in Burqa on Friday.",
    "Video from the village shows at least five houses and a dozen cars on fire.",
]


@pytest.mark.parametrize("text", ON_FIRE)
def test_homes_on_fire_are_burned_homes(types_of, text: str) -> None:
    assert types_of(text) == ["other"]


GUNFIRE_OR_SHELLING = [
    # gunfire or an assault that kills people is a killing, whatever place it was in
    ("Soldiers opened fire on protesters in the square, killing nine.", ["killing_civilians"]),
    (
        "Armed men attacked a camp for displaced families near Bule, killing 11 villagers.",
        ["killing_civilians"],
    ),
    # a weapon that strikes from afar keeps the attack type, gunfire beside it or not
    ("Two girls were killed when a jet bombed the clinic in Kyaukme.", None),
    ("Three women died as shells hit the market in Orikhiv on Monday.", None),
    ("Artillery shelled the market in Orikhiv on Monday, killing four civilians.", None),
    ("Troops attacked the village with drones and opened fire, killing two people.", None),
    # an attack with no killing told stays an attack on the place
    ("Troops fired on the hospital in the town on Monday.", None),
]


@pytest.mark.parametrize(("text", "expected"), GUNFIRE_OR_SHELLING)
def test_gunfire_killings_are_killings(types_of, text: str, expected: list[str] | None) -> None:
    assert types_of(text) == (expected or ["attack_populated_area"])


def test_a_toll_told_as_a_further_act_stays_apart(types_of) -> None:
    """A toll with no doer right after an attack is its outcome, unless told as another act."""
    attack = (
        "ZAPORIZHZHIA, Ukraine - Russian artillery shelled the central market in Orikhiv, a "
        "town in the Zaporizhzhia region, on Monday, the regional governor said.\n\n"
    )
    assert types_of(attack + "Eight people were killed, the governor said.") == [
        "attack_populated_area"
    ]
    further = "Separately, three men were killed in Huliaipole on Tuesday, police said."
    assert types_of(attack + further) == ["attack_populated_area", "killing_civilians"]


@pytest.mark.parametrize("text", CAPTIVES)
def test_surrendered_or_bound_victims_are_captives(types_of, text: str) -> None:
    assert types_of(text) == ["killing_captives"]


@pytest.mark.parametrize("text", NOT_CAPTIVES)
def test_a_cue_about_others_makes_no_captives(types_of, text: str) -> None:
    assert "killing_captives" not in types_of(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Soldiers killed at least 23 villagers in Seno on Sunday, a rights group said.\n\n"
            "The killings came weeks after the massacre in Dori, where troops were accused of "
            "killing 210 people.",
            [("killing_civilians", 23)],
        ),
        (  # a clause timed a year away, not a noun
            "A guided bomb struck a school in Lyman on Monday, killing four teachers.\n\n"
            "The strike came almost a year after two rockets hit the market in Lyman, killing "
            "31 shoppers.",
            [("attack_populated_area", 4)],
        ),
    ],
)
def test_toll_of_a_recalled_act_stays_with_it(text: str, expected: list[Any]) -> None:
    """'a month after the massacre in X, where soldiers killed 147': 147 is not today's toll."""
    ctx = DocContext(doc=load_nlp()(text))
    for stage in default_stages():
        stage(ctx)
    assert [(i.type, i.killed.low) for i in ctx.extraction.incidents] == expected


@pytest.mark.parametrize(
    ("rule", "text"), [(rule, text) for rule, texts in NOT_INCIDENTS.items() for text in texts]
)
def test_not_an_incident(types_of, rule: str, text: str) -> None:
    assert types_of(text) == [], rule


@pytest.mark.parametrize(("text", "types"), STILL_INCIDENTS)
def test_reported_act_still_an_incident(types_of, text: str, types: list[str]) -> None:
    assert types_of(text) == types


@pytest.mark.parametrize(
    "text",
    [
        "Shells hit the market in Kalma on Friday, wounding three women.\n\n"
        "The Kalma attack recalls the massacre of March 2019 in Ogossagou, in which "
        "militiamen killed about 160 villagers.",
        "A drone struck the bus station in Sheberghan on Monday, wounding three women.\n\n"
        "The Sheberghan strike was reminiscent of the bombing of the Kunduz market in May, "
        "in which 40 shoppers were killed.",
    ],
)
def test_an_act_brought_to_mind_is_not_the_news(text: str) -> None:
    """'The X strike recalls the massacre of 2019, in which ...': the news keeps its own day,
    and the other act, its date and its toll are no incident."""
    ctx = DocContext(doc=load_nlp()(text), published=dt.date(2025, 6, 20))
    for stage in default_stages():
        stage(ctx)
    found = [(i.type, i.killed.low, i.wounded.low) for i in ctx.extraction.incidents]
    assert found == [("attack_populated_area", None, 3)]
    assert not (ctx.extraction.incidents[0].date.start or "").startswith(("2019", "2025-05"))


def test_a_headline_retells_the_news_not_another_act() -> None:
    """The headline joins the report's own act, not 'another air attack' told below it."""
    text = (
        "Missile strike on Kramatorsk block kills nine\n\n"
        "The body of a 70-year-old man was found under the rubble of the apartment block in "
        "Kramatorsk on Wednesday, officials said.\n\n"
        "A day of mourning was held in the city on Thursday. It coincided with another air "
        "attack on the neighbouring town of Druzhkivka, where officials said a bomb struck a "
        "school."
    )
    ctx = DocContext(doc=load_nlp()(text))
    for stage in default_stages():
        stage(ctx)
    places = [(i.location.name, i.mentions[0].start == 0) for i in ctx.extraction.incidents]
    assert places == [("Kramatorsk", True), ("Druzhkivka", False)]


def test_strike_toll_beside_a_denial_is_the_strike() -> None:
    """'denied shelling X, after officials said the strike killed 14': the claim is an attack."""
    nlp = load_nlp()
    ctx = DocContext(
        doc=nlp(
            "The army denied that it had shelled a clinic in Rafah, after medics said the "
            "strike killed six people."
        )
    )
    for stage in default_stages():
        stage(ctx)
    assert [i.type for i in ctx.extraction.incidents] == ["attack_populated_area"]


@pytest.mark.parametrize("part", ["dev", "held", "held5", "held6"])
def test_precision_gold_strings_occur_verbatim(part: str) -> None:
    texts = gold_set_texts(PRECISION / part / "docs")
    gold = [json.loads(line) for line in (PRECISION / part / "gold.jsonl").open(encoding="utf-8")]
    mentions = [(m["source_file"], m["quote"]) for g in gold for m in g["mentions"]]
    assert mentions and all(q in texts[f] for f, q in mentions)
    assert all(5 <= len(q.split()) <= 25 for _, q in mentions)  # a clause, not a paragraph
    assert {f for f, _ in mentions} == set(texts)  # every document has a real incident


def _incident_scores(docs: Path, gold: Path, tmp: Path) -> dict[str, Any]:
    env = {"CORROBORATOR_DB": str(tmp / "p.db"), "CORROBORATOR_ARCHIVE": str(tmp / "p.archive")}
    ingest = run_cli("ingest", "--quiet", str(docs), env=env)
    assert ingest.returncode == 0, ingest.stderr
    scored = run_cli("eval", str(gold), "--json", env=env)
    assert scored.returncode == 0, scored.stderr
    report: dict[str, Any] = json.loads(scored.stdout)["incidents"]
    return report


# (docs, gold, precision floor, recall floor), just under the figures measured with the
# passing rules (before -> after, P/R): precision-dev .500/.765 -> .867/.765; precision-held
# .412/.857 -> .462/.857 measured once, then .545/.857 after one tally rule it showed
# missing, 1.0/1.0 after session 17's rules that looked at it; held2 .250/.333 -> 1.0/.667
# (seen); dev3 (session 17) .265/.583 -> .429/.667, .441/.667 (session 18); heldout 1/1 ->
# 1/1; blind .762/.714 -> .850/.762, then .842/.714 in session 18 (a prosecutor's "15 cases
# of executions" is a tally to the rules, an incident to blind's gold); seeds .961/.946 ->
# .959/.946 -> .960/.946. Session 19 (gunfire killings are killings): dev3 .457/.708, held3
# .500/.737, blind .895/.714, seeds unchanged; then (homes on fire, dated period tallies,
# charges not brought) dev3 .485/.708, held3 .538/.737.
SETS = {
    # dev: .867/.765 -> .933/.824 once 'one of the detained men died' names who died;
    # 1.0/1.0 in session 31 once people taken or held somewhere are detained
    "precision-dev": (PRECISION / "dev" / "docs", PRECISION / "dev" / "gold.jsonl", 0.95, 0.95),
    "precision-held": (PRECISION / "held" / "docs", PRECISION / "held" / "gold.jsonl", 0.95, 0.95),
    "precision-held2": (
        PRECISION / "held2" / "docs",
        PRECISION / "held2" / "gold.jsonl",
        0.95,
        0.65,
    ),
    # dev3: .667/.708 -> .700/.833 in session 31 (people taken or held are detained)
    "precision-dev3": (PRECISION / "dev3" / "docs", PRECISION / "dev3" / "gold.jsonl", 0.65, 0.8),
    # dev4: written blind in session 31, scored once: .529/.789 with the rules the session
    # started with, .579/.947 with its custody verbs (written before the set was read)
    "precision-dev4": (PRECISION / "dev4" / "docs", PRECISION / "dev4" / "gold.jsonl", 0.6, 0.9),
    # dev5: written blind in session 32, scored once at .432/.765 with the rules the
    # session started with; .692/.824 after the rules read off it
    "precision-dev5": (PRECISION / "dev5" / "docs", PRECISION / "dev5" / "gold.jsonl", 0.65, 0.8),
    # dev6: written blind in session 33, scored once at .526/.882 with the rules the
    # session started with; .606/.882 after the rules read off it
    "precision-dev6": (PRECISION / "dev6" / "docs", PRECISION / "dev6" / "gold.jsonl", 0.55, 0.85),
    # held12: written blind in session 33, kept unseen to its end, scored once: .526/.789
    # with the rules the session started with, .541/.789 with its own
    "precision-held12": (
        PRECISION / "held12" / "docs",
        PRECISION / "held12" / "gold.jsonl",
        0.5,
        0.75,
    ),
    # dev7: written blind in session 34, scored once at .513/.789 with the rules the
    # session started with; .556/.789 after the rules read off it; .714/.737 in session
    # 40: a truck driver who 'died in his cab' is the drone strike's toll, one attack,
    # where the gold types the strike a killing (it had matched the lone 'died' before)
    "precision-dev7": (PRECISION / "dev7" / "docs", PRECISION / "dev7" / "gold.jsonl", 0.6, 0.73),
    # held13: written blind in session 34, kept unseen to its end, scored once: .450/.833
    # with the rules the session started with, .474/.833 with its own
    "precision-held13": (
        PRECISION / "held13" / "docs",
        PRECISION / "held13" / "gold.jsonl",
        0.47,
        0.8,
    ),
    # dev8: written blind in session 35, scored once at .400/.737 with the rules the
    # session started with; .410/.737 after the rules read off it
    "precision-dev8": (PRECISION / "dev8" / "docs", PRECISION / "dev8" / "gold.jsonl", 0.4, 0.7),
    # held14: written blind in session 35, kept unseen to its end, scored once: .556/.762,
    # the same with the rules the session started with
    "precision-held14": (
        PRECISION / "held14" / "docs",
        PRECISION / "held14" / "gold.jsonl",
        0.55,
        0.75,
    ),
    # held15: written blind in session 36, kept unseen to its end, scored once: .621/.895,
    # the same with the rules the session started with
    "precision-held15": (
        PRECISION / "held15" / "docs",
        PRECISION / "held15" / "gold.jsonl",
        0.62,
        0.89,
    ),
    # held16: written blind in session 37, kept unseen to its end, scored once: .516/.737,
    # the same with the rules the session started with; .593/.737 after four rules read
    # off it (a TV drama's plot, a threat against 'any' one, lightning and a snake bite)
    "precision-held16": (
        PRECISION / "held16" / "docs",
        PRECISION / "held16" / "gold.jsonl",
        0.59,
        0.73,
    ),
    # held3: written blind, scored once at .302/.684, then .361/.684 after rules its
    # failures showed (accidents, rumours, habitual present, statements of law), .464/.684
    # after session 18's (period tallies, recalled clauses, harmless landings, places)
    "precision-held3": (
        PRECISION / "held3" / "docs",
        PRECISION / "held3" / "gold.jsonl",
        0.52,
        0.71,
    ),
    # held4: written blind in session 18, scored once at .311/.750 before the session's
    # rules and .318/.750 after them (its errors not read); .391/.875 after session 19's
    # rule read off held3; read in session 20 (a dev set since): .439/.875 after deaths
    # from illness, exchanges of fire, disproved reports, 'neither'/'without' and history
    # dated half a year before the report stopped being incidents; .645/.938 after session
    # 23's (a second drone's strike told apart, a toll across a region a total)
    "precision-held4": (
        PRECISION / "held4" / "docs",
        PRECISION / "held4" / "gold.jsonl",
        0.62,
        0.85,
    ),
    # held5: written blind in session 20, scored once at its end: .383/.750 (.367/.750 with
    # the rules the session started with); .409/.750 once an illness or a natural disaster
    # as the killer ('cholera had killed at least 40') was no one's act, .419/.750 once a
    # count 'in August alone' was a period's tally (both read off held5); .625/.750 after
    # session 23's (an ongoing kind of act, 'they are also killing and taking people')
    "precision-held5": (
        PRECISION / "held5" / "docs",
        PRECISION / "held5" / "gold.jsonl",
        0.6,
        0.74,
    ),
    # held6: written blind in session 21, scored once: .574/.826 with the starting rules,
    # .587/.826 with the later-toll rule written before it was read; .659/.870 after seven
    # rules read off it (a dev set since)
    "precision-held6": (
        PRECISION / "held6" / "docs",
        PRECISION / "held6" / "gold.jsonl",
        0.62,
        0.8,
    ),
    # held7: written blind in session 22, scored once: .516/.696 with the starting rules;
    # .533/.696 at its end; .516/.696 after session 23's (reading who died from the subject
    # of 'died' added two incidents its gold does not hold; its errors not read); .533/.652
    # in session 37: once deaths from malnutrition are no act, a live blog's aid-queue
    # shooting in northern Gaza merges with a military statement on a strike in al-Mawasi
    # (both placed at Gaza) and is told as that attack, not as a killing
    "precision-held7": (
        PRECISION / "held7" / "docs",
        PRECISION / "held7" / "gold.jsonl",
        0.5,
        0.65,
    ),
    # held8: written blind in session 23, scored once: .571/.773 with the starting rules,
    # unchanged at its end (errors not read)
    "precision-held8": (
        PRECISION / "held8" / "docs",
        PRECISION / "held8" / "gold.jsonl",
        0.55,
        0.75,
    ),
    # held9: written blind in session 29, scored once at its end: .345/.588, as with the
    # rules the session started with (dates 5/10 -> 9/10, places 7/10 both); read after
    # that (a dev set since): .357/.588 once a title naming the attack joins the killings,
    # .370/.588 once a patient transferred to hospital is no deportation
    "precision-held9": (
        PRECISION / "held9" / "docs",
        PRECISION / "held9" / "gold.jsonl",
        0.36,
        0.58,
    ),
    # held10: written blind in session 31, scored once at its end: .500/.722 with the
    # rules the session started with, .541/.833 with its rules (none read off it)
    "precision-held10": (
        PRECISION / "held10" / "docs",
        PRECISION / "held10" / "gold.jsonl",
        0.52,
        0.8,
    ),
    # held11: written blind in session 32, scored once at its end: .387/.524 with the
    # rules the session started with, .375/.524 with its rules (none read off it); one
    # place rule read off it since
    "precision-held11": (
        PRECISION / "held11" / "docs",
        PRECISION / "held11" / "gold.jsonl",
        0.35,
        0.5,
    ),
    # heldout: 1.0 -> .955 once any person noun that names no combatant is a victim
    # ('survivors described being held and beaten' beside a rape the gold counts alone);
    # .913 in session 31, once 'kept him in a hole for three days' is a detention (an
    # intercepted soldier's comrade, punished; the gold holds only the threat it makes)
    "heldout": (FIXTURES / "heldout" / "docs", FIXTURES / "heldout" / "gold.jsonl", 0.91, 0.97),
    # blind's gold counts a Gaza shelter report's background line on 7 October (nine months
    # before it) as two incidents; since session 20 history dated that far back is
    # background: .895/.714 -> .882/.619; .833/.619 once any non-combatant person noun is a
    # victim (survivors fired on by a returning helicopter, told apart from the strike);
    # .800/.667 in session 31: people taken and held are detained (the Kherson detention
    # found), and a headline "'They took the men to the river'" is one more
    "blind": (FIXTURES / "blind" / "docs", FIXTURES / "blind" / "gold.jsonl", 0.80, 0.66),
    "seeds": (SHARED / "seeds", SHARED / "gold" / "seeds.jsonl", 0.94, 0.92),
}


@pytest.mark.parametrize("name", sorted(SETS))
def test_incident_precision_and_recall_floors(name: str, tmp_path: Path) -> None:
    docs, gold, p_floor, r_floor = SETS[name]
    if not docs.exists() or not gold.exists():
        pytest.skip("needs ../shared/seeds (workspace data), not in this checkout")
    scores = _incident_scores(docs, gold, tmp_path)
    assert scores["precision"] >= p_floor, scores
    assert scores["recall"] >= r_floor, scores


def test_bare_retelling_joins_and_a_second_strike_stays_apart(types_of) -> None:
    """A later sentence with no toll, place, date or victims of its own retells the act a
    paragraph up; 'a second missile' is a further act."""
    joined = (
        "A missile struck a hospital in Sumy on Monday, killing six patients and two nurses.\n\n"
        "Doctors said the missile hit the surgical wing while operations were under way.\n\n"
        '"Soldiers fired rockets at the hospital without any warning," a surgeon said.'
    )
    apart = (
        "A missile struck a hospital in Sumy on Monday, killing six patients and two nurses.\n\n"
        "A second missile hit an apartment building on the edge of the city an hour later."
    )
    assert types_of(joined) == ["attack_populated_area"]
    assert types_of(apart) == ["attack_populated_area", "attack_populated_area"]


def test_a_nearby_act_in_another_village_stays_apart(incidents_of) -> None:
    """Near sentences of one type join unless they name other settlements: a bomb on a
    house in another village the same night is another act, with its own toll."""
    text = (
        "A Russian drone struck a queue of residents at a water truck in the border village "
        "of Velyka Pysarivka, in Sumy region, killing two people, regional officials said.\n\n"
        "The drone hit the square by the village shop minutes after the truck arrived, the "
        "head of the village, Petro Hnatiuk, told reporters. A woman of 70 and the truck's "
        "driver were killed at the scene, he said.\n\n"
        "About 200 residents still live in the village, 4 kilometres from the border.\n\n"
        "Overnight, a Russian guided bomb destroyed a house in the village of Krasnopillia, "
        "in the Sumy district, killing a 70-year-old man who lived there alone, the regional "
        "prosecutor's office said."
    )
    found = [(i.type, i.location.name if i.location else None) for i in incidents_of(text)]
    assert found == [
        ("attack_populated_area", "Velyka Pysarivka"),
        ("attack_populated_area", "Krasnopillia"),
    ]


def test_photo_caption_hosts_no_retelling() -> None:
    """A caption line describes its picture: a soldier's general account of strikes on
    civilians told below it is no retelling of it, and keeps the report's own place."""
    nlp = load_nlp()
    text = (
        "Soldiers describe chaos at the front\n"
        "Two captured gunners spoke to reporters in Sumy on Thursday.\n"
        "A woman stands beside a house destroyed by an air strike in the village of Pysarivka\n"
        "One of them said: 'We understood that the rockets we fired were hitting peaceful "
        "people, not soldiers.'\n"
    )
    ctx = DocContext(doc=nlp(text))
    for stage in default_stages():
        stage(ctx)
    attacks = [i for i in ctx.extraction.incidents if i.type == "attack_populated_area"]
    assert len(attacks) == 2
    caption = next(i for i in attacks if "Pysarivka" in text[i.mentions[0].start :])
    assert [text[m.start : m.end].startswith("A woman") for m in caption.mentions] == [True]


@pytest.fixture(scope="module")
def incidents_of():
    nlp = load_nlp()
    stages = default_stages()

    def run(text: str) -> list[Any]:
        ctx = DocContext(doc=nlp(text))
        for stage in stages:
            stage(ctx)
        for inc in ctx.extraction.incidents:
            for value in inc.sources.get("location", []):
                assert text[value.start : value.end] == value.text
        return list(ctx.extraction.incidents)

    return run


def _places(incidents: list[Any]) -> list[tuple[str, str | None]]:
    return sorted((i.type, i.location.name if i.location else None) for i in incidents)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a person's home town yields to the place the sentence gives the act
        (
            "Oksana Melnyk, a teacher from Poltava, was detained by soldiers at a checkpoint "
            "near Melitopol in May.",
            [("abduction_detention", "Melitopol")],
        ),
        # ... and is still the best clue when it is the only place named
        (
            "Soldiers detained nine farmers from Irpin and held them for a week.",
            [("abduction_detention", "Irpin")],
        ),
        # the place of another act, an interval earlier, that dates this one
        (
            "A drone hit a clinic in Izium on Friday, wounding three nurses.\n\n"
            "The strike came two weeks after a missile struck a market in Balakliia.",
            [("attack_populated_area", "Izium")],
        ),
        # where a witness lives now is not where the act was
        (
            "Soldiers shot dead five civilians in Borodianka on Monday.\n\nA second "
            "witness, a farmer who now lives in Kyiv, said soldiers had shot a teacher too.",
            [("killing_civilians", "Borodianka")],
        ),
        # where a court hears the case is not where the act was
        (
            "A court in Dnipro on Wednesday sentenced a Russian soldier to life in prison for "
            "the killing of two civilians.\n\nHis unit was stationed near Pokrovsk.",
            [("killing_civilians", "Pokrovsk")],
        ),
        # a plain 'after' clause may be the same scene: its place stays usable
        (
            "A soldier was shot dead by his own commander after the unit was ordered to open "
            "fire on civilians in Kupiansk.",
            [("killing_own_forces", "Kupiansk"), ("no_quarter_order", "Kupiansk")],
        ),
        # an article without a headline: its lead's place is not ranked like a headline's
        (
            "Shelling hit a school in Nikopol on Sunday, wounding two teachers, officials said "
            "in Dnipro.\n\nThe attack came days after a strike on a bus station in Marhanets.",
            [("attack_populated_area", "Nikopol")],
        ),
        # a town that places another ('30 km west of X') yields to a town the act names
        (
            "Gunmen shot dead four farmers in Tal Hamid\n\nA man from Tal Hamid, a farming "
            "village 30 km west of Al-Hasakah, said the gunmen shot four farmers at their well "
            "on Sunday.",
            [("killing_civilians", "Tal Hamid")],
        ),
        # ... while 'near X' said of the act itself places it there
        (
            "Gunmen stopped a minibus running from Kharkiv to Izium near Balakliia and abducted "
            "five passengers, police said.",
            [("abduction_detention", "Balakliia")],
        ),
        # a village described by its people and trade, in a district named after its town
        (
            "Armed men killed at least seven traders in Sogou Dine, a Dogon market village in "
            "the Koro circle, the mayor said.",
            [("killing_civilians", "Sogou Dine")],
        ),
        (
            "Militants killed four shepherds in Kiri Wan, a Kurdish farming hamlet in Afrin "
            "district, on Monday.",
            [("killing_civilians", "Kiri Wan")],
        ),
        # a name read as a place after 'outside' and 'near' and as a body before 'health
        # post' and 'chief' is the village (the readings after prepositions of place win)
        (
            "Fighters took six women from their fields outside Mulungu in South Kivu on "
            "Tuesday and held them in a camp near Mulungu for a month, a nurse at the Mulungu "
            "health post said. The Mulungu chief confirmed the account.",
            [("abduction_detention", "Mulungu")],
        ),
    ],
)
def test_incident_place_rules(incidents_of, text: str, expected: list[Any]) -> None:
    assert _places(incidents_of(text)) == expected


def test_passive_beating_of_a_held_person_is_torture(types_of) -> None:
    """'He was kept ... and beaten': the conjoined passive shares its subject, a person."""
    held = types_of("He was kept in a garage for two weeks and beaten every night, his wife said.")
    assert "torture_mistreatment" in held
    assert types_of("The champions were beaten in the final by a younger side.") == []


def test_keeping_a_thing_somewhere_holds_no_one(types_of) -> None:
    """A custody verb ('keep', 'hold') over an object that names no person is no detention,
    whatever follows the object in apposition; over people it is one."""
    folder = (
        "In a rented room in Zaporizhzhia, a mother keeps a folder with everything in it: "
        "photocopies of her son's papers and the receipt for a courier."
    )
    assert types_of(folder) == []
    assert types_of("Soldiers kept dozens of men in the school basement for a week.") == [
        "abduction_detention"
    ]


def test_act_dated_to_an_earlier_month_and_year_is_background(types_of) -> None:
    assert (
        types_of("In March 2022, an air strike on the theatre in Mariupol killed hundreds.") == []
    )
    assert types_of("An air strike on the theatre in Mariupol killed dozens on Tuesday.") == [
        "attack_populated_area"
    ]
    # ... over every act the sentence joins to it, past a victim's age
    recalled = (
        "Settlers shot a shepherd near Duma on Friday, his family said.\n\nNone of this is new "
        "here. In July 2015 settlers firebombed the Salem home in Duma; Omar, 18 months old, "
        "burned to death, and his parents died of their wounds."
    )
    assert types_of(recalled) == ["killing_civilians"]


def test_an_act_told_after_this_one_lends_it_no_date() -> None:
    """The report's one date, on an act of its own told after this one, is that act's day;
    told before it, it may be the day whose news goes on."""
    import datetime as dt

    def dates(text: str) -> dict[str, str | None]:
        ctx = DocContext(doc=load_nlp()(text), published=dt.date(2025, 5, 12))
        for stage in default_stages():
            stage(ctx)
        return {i.type: i.date.start if i.date else None for i in ctx.extraction.incidents}

    shepherd = "Settlers shot a shepherd in Khirbet Zanuta, his brother said."
    burned = "On 14 March, settlers burned six homes and a car in the hamlet."
    assert dates(f"{shepherd}\n\n{burned}") == {"killing_civilians": None, "other": "2025-03-14"}
    assert dates(f"{burned}\n\n{shepherd}")["killing_civilians"] == "2025-03-14"


def test_a_report_dating_its_own_news_to_the_day_keeps_the_toll() -> None:
    """'on 3 May 2024, where they killed 12': a day dates the news; only a year or a month
    of one ('in June 2022, where...') marks an earlier event."""
    nlp = load_nlp()
    ctx = DocContext(doc=nlp("Gunmen attacked Kolo on 3 May 2024, where they killed 12 people."))
    for stage in default_stages():
        stage(ctx)
    # gunmen name no weapon striking from afar: the act is the killing
    assert [(i.type, i.killed.low) for i in ctx.extraction.incidents] == [("killing_civilians", 12)]


def _incidents(text: str, published: str | None = None) -> list[tuple[str, str]]:
    import datetime as dt

    ctx = DocContext(
        doc=load_nlp()(text), published=dt.date.fromisoformat(published) if published else None
    )
    for stage in default_stages():
        stage(ctx)
    return [(i.type, i.mentions[0].text) for i in ctx.extraction.incidents]


# a report of this week's strike, with history told past its lead in any grammar
RECALLING = (
    "Shelling hits Orikhiv clinic\n\n"
    "ORIKHIV, Ukraine, 12 May 2025\n\n"
    "Russian artillery hit the district clinic in Orikhiv on Sunday, killing two nurses, "
    "regional officials said.\n\n"
    "Staff had already rebuilt the ward once. The clinic faces the square where a glide bomb "
    "fell in October 2023, when eleven people queuing for bread died.\n\n"
    "Residents also marked the anniversary of the executions at the brick works on 8 May 2022, "
    "where soldiers shot six men from the village."
)


def test_history_dated_long_before_the_report_is_its_background() -> None:
    """A sentence past the lead whose dates all lie half a year or more before the report's
    time (its publication date, else its dateline) recalls the past, whatever its grammar."""
    for published in (None, "2025-05-12"):
        found = _incidents(RECALLING, published)
        assert [t for t, _ in found] == ["attack_populated_area"], found
        assert "Sunday" in found[0][1] or "Shelling" in found[0][1]


def test_an_old_act_a_community_remembers_is_background() -> None:
    """'Today the region also remembers the 46 people killed when a missile hit ... in
    January 2023': remembered on the day of the report, still an old act, also in a report
    with no date of its own; likewise what the police recall."""
    text = (
        "A drone hit a minibus outside Bilopillia on Tuesday, killing three passengers, "
        "officials said.\n\nThe minibus was carrying villagers to the market. Rescuers "
        "worked for two hours at the scene.\n\nToday the region also remembers the 46 "
        "people killed when a Russian missile hit an apartment block in Dnipro in January "
        "2023."
    )
    for published in (None, "2025-06-10"):
        found = _incidents(text, published)
        assert [t for t, _ in found] == ["attack_populated_area"], (published, found)
    recalled = text.replace("the region also remembers", "the police also recall")
    assert [t for t, _ in _incidents(recalled, "2025-06-10")] == ["attack_populated_area"]


def test_a_testimony_about_an_old_detention_keeps_it() -> None:
    """With no recent act of its own, a report's old dates are its subject: a witness at a
    2025 hearing telling of a 2022 detention."""
    text = (
        "Hearing of the commission on disappearances, day three\n\n"
        "The commission heard a witness from Nova Kakhovka on Tuesday.\n\n"
        "She said that soldiers detained her brother at a checkpoint on 14 June 2022 and "
        "beat him in front of her. The family has not seen him since."
    )
    found = _incidents(text, "2025-02-20")
    assert found and all("14 June 2022" in m for _, m in found), found


def test_a_later_toll_is_the_attack_told_above_unless_set_elsewhere(types_of) -> None:
    """A killing told with no killer of its own a few paragraphs below an attack is that
    attack's revised toll; set in a place the attack never names, it is another act."""
    attack = (
        "A Russian glide bomb hit a five-storey apartment block in Sloviansk on Thursday "
        "evening, wounding 14 people.\n\n"
        "Residents said the blast shattered windows across the street.\n\n"
    )
    toll = "By Friday noon eight people had been killed, the emergency service said."
    elsewhere = (
        "On Saturday, on the road outside Mykolaivka, a drone fired at our ambulance. "
        "Two nurses were killed in the front seats."
    )
    assert types_of(attack + toll) == ["attack_populated_area"]
    assert types_of(attack + elsewhere) == ["attack_populated_area", "killing_civilians"]


@pytest.mark.parametrize(
    ("text", "types"),
    [
        ("Gunmen killed four paramedics on the road to Kidal on Monday.", ["killing_civilians"]),
        ("Unknown assailants killed two imams in the village of Mora.", ["killing_civilians"]),
        ("Two electricians were shot dead at a checkpoint outside Gao.", ["killing_civilians"]),
        # a combatant, or someone who may be one, is no civilian victim by default
        ("Two interrogators were killed in the strike on the base.", []),
        ("Two guards were killed in a clash at the checkpoint.", []),
    ],
)
def test_any_person_noun_naming_no_combatant_is_a_victim(
    types_of, text: str, types: list[str]
) -> None:
    """Victims come from the one list of person nouns (persons.txt): a killing of people
    named by any non-combatant noun is no longer dropped for want of a victim word."""
    assert types_of(text) == types


def test_a_toll_counted_days_later_is_still_the_attack() -> None:
    """With the report dated, 'by Wednesday morning' dates the toll a day after Tuesday's
    strike: still its toll. A killing dated a week before the strike is not."""
    import datetime as dt

    nlp, stages = load_nlp(), default_stages()

    def types(text: str) -> list[str]:
        ctx = DocContext(doc=nlp(text), published=dt.date(2025, 3, 19))
        for stage in stages:
            stage(ctx)
        return sorted(i.type for i in ctx.extraction.incidents)

    strike = (
        "A Russian guided bomb struck an apartment building in Kharkiv on Tuesday evening, "
        "wounding 19 people.\n\nResidents said the blast shattered windows across the street.\n\n"
    )
    later = "By Wednesday morning four people had been killed, the emergency service said."
    before = "On 11 March four people had been killed in a market, the emergency service said."
    assert types(strike + later) == ["attack_populated_area"]
    assert types(strike + before) == ["attack_populated_area", "killing_civilians"]


def test_bodies_of_those_held_found_later_are_killed_captives(types_of) -> None:
    """'Taken and found shot' (the seed gold's rule): a killing with no killer of its own
    below a detention, no more victims than were held, is the killing of those held; in
    another town it is another act."""
    held = "Soldiers detained seven men at a checkpoint outside Kani on 11 May.\n\n"
    found = "On 12 May villagers found the bodies of all seven men near a stream, shot dead."
    elsewhere = "On 12 May villagers in Monywa found the bodies of two women, shot dead."
    assert types_of(held + found) == ["abduction_detention", "killing_captives"]
    assert types_of(held + elsewhere) == ["abduction_detention", "killing_civilians"]
