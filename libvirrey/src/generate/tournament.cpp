#include "tournament.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "random.hpp"
#include "virrey/generate/game_generator.hpp"

namespace virrey::generate {

namespace {

using namespace std::string_view_literals;

constexpr std::array kSurnames = {
    "García"sv,  "Fernández"sv, "López"sv,      "Martínez"sv, "Sánchez"sv,  "Pérez"sv,    "Gómez"sv,
    "Díaz"sv,    "Torres"sv,    "Ramírez"sv,    "Flores"sv,   "Rojas"sv,    "Vargas"sv,   "Castillo"sv,
    "Mendoza"sv, "Quispe"sv,    "Huamán"sv,     "Salazar"sv,  "Herrera"sv,  "Aguilar"sv,  "Ortega"sv,
    "Navarro"sv, "Molina"sv,    "Delgado"sv,    "Cabrera"sv,  "Espinoza"sv, "Valdivia"sv, "Paredes"sv,
    "Garzón"sv,  "Ibáñez"sv,    "Villanueva"sv, "Carranza"sv, "Zamora"sv,   "Ferreira"sv, "Oliveira"sv,
    "Silva"sv,   "Costa"sv,     "Almeida"sv,    "Moreau"sv,   "Lefebvre"sv, "Schmidt"sv,  "Becker"sv,
    "Novak"sv,   "Horvath"sv,   "Kovacs"sv,     "Petrov"sv,   "Ivanov"sv,   "Smirnov"sv,  "Kowalski"sv,
    "Nielsen"sv, "Jansen"sv,    "de Vries"sv,   "Rossi"sv,    "Bianchi"sv,  "Smith"sv,    "Walker"sv,
    "O'Brien"sv, "Murphy"sv,    "Gupta"sv,      "Iyer"sv,     "Nakamura"sv, "Tanaka"sv,   "Li"sv,
    "Wang"sv,    "Aronian"sv,   "Gelashvili"sv, "Haddad"sv,   "Okafor"sv,
};

constexpr std::array kGivenNames = {
    "Ana"sv,   "Lucía"sv,   "María"sv,     "Carmen"sv, "Sofía"sv,   "Valentina"sv, "Camila"sv,  "Isabel"sv,
    "Elena"sv, "Paula"sv,   "Rosa"sv,      "Inés"sv,   "Julia"sv,   "Marta"sv,     "Beatriz"sv, "Natalia"sv,
    "Olga"sv,  "Irina"sv,   "Anna"sv,      "Sarah"sv,  "Mei"sv,     "Priya"sv,     "Yuki"sv,    "Amara"sv,
    "José"sv,  "Juan"sv,    "Luis"sv,      "Carlos"sv, "Jorge"sv,   "Miguel"sv,    "Andrés"sv,  "Diego"sv,
    "Pablo"sv, "Javier"sv,  "Raúl"sv,      "Óscar"sv,  "Julio"sv,   "Ramón"sv,     "Tomás"sv,   "Sebastián"sv,
    "Mateo"sv, "Nicolás"sv, "Alejandro"sv, "Emilio"sv, "Gonzalo"sv, "Ignacio"sv,   "Joaquín"sv, "Rodrigo"sv,
    "João"sv,  "Pierre"sv,  "Hans"sv,      "Lars"sv,   "Pieter"sv,  "Marco"sv,     "Ivan"sv,    "Dmitri"sv,
    "Levon"sv, "David"sv,   "John"sv,      "Arjun"sv,  "Hikaru"sv,  "Wei"sv,       "Karim"sv,   "Chidi"sv,
};

struct City {
  std::string_view name;
  std::string_view country;  // IOC code, as PGN Site tags write it
};

constexpr std::array kCities = {
    City{"Lima", "PER"},
    City{"Cusco", "PER"},
    City{"Arequipa", "PER"},
    City{"Buenos Aires", "ARG"},
    City{"Mar del Plata", "ARG"},
    City{"Madrid", "ESP"},
    City{"Sevilla", "ESP"},
    City{"Linares", "ESP"},
    City{"Salamanca", "ESP"},
    City{"Barcelona", "ESP"},
    City{"Ciudad de México", "MEX"},
    City{"Guadalajara", "MEX"},
    City{"Bogotá", "COL"},
    City{"Cartagena", "COL"},
    City{"Quito", "ECU"},
    City{"Santiago", "CHI"},
    City{"Montevideo", "URU"},
    City{"La Paz", "BOL"},
    City{"Asunción", "PAR"},
    City{"Caracas", "VEN"},
    City{"La Habana", "CUB"},
    City{"São Paulo", "BRA"},
    City{"Lisboa", "POR"},
    City{"Paris", "FRA"},
    City{"Berlin", "GER"},
    City{"Dortmund", "GER"},
    City{"London", "ENG"},
    City{"Wijk aan Zee", "NED"},
    City{"Praha", "CZE"},
    City{"Budapest", "HUN"},
    City{"Reykjavik", "ISL"},
    City{"Tbilisi", "GEO"},
    City{"Yerevan", "ARM"},
    City{"Chennai", "IND"},
    City{"New York", "USA"},
    City{"Saint Louis", "USA"},
};

// "{}" is the city; the year is appended.
constexpr std::array kVirreyEvents = {
    "Torneo del Virrey {}"sv, "Copa Virrey {}"sv,         "{} Virrey Open"sv,     "{} Viceroy Masters"sv,
    "Memorial Garzón {}"sv,   "{} Virrey Invitational"sv, "Festival Virrey {}"sv, "{} Ajedrez del Virrey"sv,
};
constexpr std::array kModernEvents = {
    "{} Modern Chess Open"sv, "Memorial Maura {}"sv, "Torneo de Ajedrez Moderno {}"sv,
    "{} 9x9 Masters"sv,       "Copa Ministro {}"sv,  "{} Modern Invitational"sv,
};
constexpr std::array kStandardEvents = {
    "{} Open"sv,           "{} Masters"sv,           "{} Invitational"sv,
    "{} Chess Festival"sv, "Torneo Magistral {}"sv,  "{} Championship"sv,
    "{} Zonal"sv,          "{} Club Championship"sv,
};

constexpr std::uint64_t kPlayerPool = kSurnames.size() * kGivenNames.size();

PlayerTag player(std::uint64_t seed, std::uint64_t id, std::uint64_t tournament) {
  PlayerTag p;
  p.name = fmt::format("{}, {}", kSurnames[id % kSurnames.size()],
                       kGivenNames[id / kSurnames.size() % kGivenNames.size()]);
  Random r(mix_words({seed, 0x504c4159ULL, id}));
  const int base = 1650 + (int(r.below(1000)) + int(r.below(1000))) / 2;  // 1650-2649, peak 2150
  Random form(mix_words({seed, 0x464f524dULL, id, tournament}));
  p.elo = base + form.range(-60, 60);
  return p;
}

std::string format_event(std::string_view pattern, std::string_view city) {
  return fmt::format(fmt::runtime(pattern), city);
}

}  // namespace

std::uint64_t player_pool_size() { return kPlayerPool; }
PlayerTag pool_player(std::uint64_t seed, std::uint64_t id, std::uint64_t tournament) {
  return player(seed, id, tournament);
}

Pairing tournament_pairing(Variant variant, std::uint64_t seed, std::uint64_t index) {
  const std::uint64_t t = index / kGamesPerTournament;
  const int game = int(index % kGamesPerTournament);
  const int games_per_round = kPlayersPerTournament / 2;
  const int round = game / games_per_round, board = game % games_per_round;

  Random r(mix_words({seed, std::uint64_t(variant), 0x544f55524eULL, t}));
  const City& city = kCities[r.below(kCities.size())];
  // Virrey chess dates from 2015, Modern chess from 1968.
  const int year = variant == Variant::Virrey   ? r.range(2015, 2025)
                   : variant == Variant::Modern ? r.range(1970, 2025)
                                                : r.range(1975, 2025);
  const int month = r.range(1, 12);
  const int first_day = r.range(1, 28 - kPlayersPerTournament);
  const std::span<const std::string_view> events =
      variant == Variant::Virrey   ? std::span<const std::string_view>(kVirreyEvents)
      : variant == Variant::Modern ? std::span<const std::string_view>(kModernEvents)
                                   : std::span<const std::string_view>(kStandardEvents);
  const std::string_view pattern = events[r.below(std::uint32_t(events.size()))];

  // Ten distinct players of the pool.
  std::array<std::uint64_t, kPlayersPerTournament> ids{};
  for (int i = 0; i < kPlayersPerTournament; ++i) {
    std::uint64_t id;
    do id = r.next() % kPlayerPool;
    while (std::find(ids.begin(), ids.begin() + i, id) != ids.begin() + i);
    ids[i] = id;
  }

  // FIDE's Berger tables (Handbook C.05, Annex 1): round 1 pairs draw
  // numbers 1-n, 2-(n-1), ... with the first named White; each later round
  // adds n/2 to every number but n (modulo n-1), and n alternates colours on
  // board 1. So every player has White four or five times in nine rounds.
  const int n = kPlayersPerTournament, others = n - 1;
  const auto turned = [&](int slot) { return (slot + round * (n / 2)) % others; };
  int a, b;
  if (board == 0) {
    a = turned(0);
    b = n - 1;
    if (round % 2 == 1) std::swap(a, b);
  } else {
    a = turned(board);
    b = turned(n - 1 - board);
  }

  Pairing p;
  p.event = fmt::format("{} {}", format_event(pattern, city.name), year);
  p.site = fmt::format("{} {}", city.name, city.country);
  p.date = fmt::format("{:04}.{:02}.{:02}", year, month, first_day + round);
  p.event_date = fmt::format("{:04}.{:02}.{:02}", year, month, first_day);
  p.round = fmt::format("{}.{}", round + 1, board + 1);
  p.white = player(seed, ids[std::size_t(a)], t);
  p.black = player(seed, ids[std::size_t(b)], t);
  return p;
}

}  // namespace virrey::generate
