// belote-table reference firmware: an ESP32 scanning up to 9 MFRC522 readers
// on one SPI bus (one chip select each, a shared reset line), streaming the
// table's wire protocol over USB serial at 115200 baud.
//
// Build: Arduino IDE or `arduino-cli compile --fqbn esp32:esp32:esp32 firmware_bridge/firmware`
// with the "MFRC522" library (miguelbalboa/rfid). Wiring and parts: docs/wiring.md.
//
// Everything that can run without the board lives in the portable C next to
// this sketch (wire.c, scan.c, txq.c, table.c) and is compiled and tested on
// the host by `make test`. This file only adapts the MFRC522 driver to
// `struct reader_ops`, and moves bytes between the serial port and the core:
//   - never blocks on a full serial buffer (frames wait in the txq; a frame that
//     does not fit is dropped and counted, and the host sees the SEQ gap);
//   - RESET from the host restarts the board (new boot id, HELLO again).
#include <Arduino.h>
#include <MFRC522.h>
#include <SPI.h>

extern "C" {
#include "table.h"
}

static const uint8_t RST_PIN = 33;
// Chip selects, in antenna order: 0 deal, 1-4 play N E S W, 5-8 hand N E S W
// (the default antennas.csv). Avoids the strapping pins 0, 2, 12 and 15.
static const uint8_t SS_PINS[] = {5, 17, 16, 4, 21, 22, 25, 26, 27};
static const uint8_t ANTS = sizeof SS_PINS / sizeof SS_PINS[0];

static MFRC522 *chips[ANTS];
static void *contexts[ANTS];
static struct txq tx;
static struct table core;

// MFRC522 -> reader_ops: 1 success, 0 no tag, -1 the chip or the bus failed.
static int chip_alive(MFRC522 *chip)
{
    byte version = chip->PCD_ReadRegister(MFRC522::VersionReg);
    return version != 0x00 && version != 0xFF;   // a floating or dead SPI line reads 00 or FF
}

static int op_init(void *ctx)
{
    MFRC522 *chip = static_cast<MFRC522 *>(ctx);
    chip->PCD_Init();
    chip->PCD_SetAntennaGain(MFRC522::RxGain_max);
    // The library's receive timeout is 25 ms (1000 ticks of 25 us): every empty
    // antenna would cost that per scan. A tag answers REQA/WUPA within 0.1 ms,
    // so 5 ms (200 ticks) keeps a sweep of 9 antennas near 50 ms.
    chip->PCD_WriteRegister(MFRC522::TReloadRegH, 0x00);
    chip->PCD_WriteRegister(MFRC522::TReloadRegL, 0xC8);
    return chip_alive(chip) ? 1 : -1;
}

static int op_field(void *ctx, int on)
{
    MFRC522 *chip = static_cast<MFRC522 *>(ctx);
    if (on) {
        chip->PCD_AntennaOn();
        delay(5);   // tags need a few ms of field to power up and reach IDLE
    } else {
        chip->PCD_AntennaOff();
        delay(2);
    }
    return chip_alive(chip) ? 1 : -1;
}

static int answer(MFRC522::StatusCode status)
{
    if (status == MFRC522::STATUS_OK || status == MFRC522::STATUS_COLLISION)
        return 1;   // one tag, or several that the anticollision will tell apart
    if (status == MFRC522::STATUS_TIMEOUT)
        return 0;
    return -1;
}

static int op_wupa(void *ctx)
{
    MFRC522 *chip = static_cast<MFRC522 *>(ctx);
    if (!chip_alive(chip))
        return -1;
    byte atqa[2];
    byte size = sizeof atqa;
    return answer(chip->PICC_WakeupA(atqa, &size));
}

static int op_reqa(void *ctx)
{
    MFRC522 *chip = static_cast<MFRC522 *>(ctx);
    byte atqa[2];
    byte size = sizeof atqa;
    return answer(chip->PICC_RequestA(atqa, &size));
}

static int op_select(void *ctx, uint8_t *uid, uint8_t *len)
{
    MFRC522 *chip = static_cast<MFRC522 *>(ctx);
    MFRC522::StatusCode status = chip->PICC_Select(&chip->uid);
    if (status == MFRC522::STATUS_TIMEOUT || status == MFRC522::STATUS_COLLISION)
        return 0;   // gone, or a collision left for the next scan
    if (status != MFRC522::STATUS_OK)
        return -1;
    *len = chip->uid.size;
    memcpy(uid, chip->uid.uidByte, chip->uid.size);
    return 1;
}

static int op_halt(void *ctx)
{
    static_cast<MFRC522 *>(ctx)->PICC_HaltA();
    return 1;   // HLTA has no answer: silence is success
}

static const struct reader_ops MFRC522_OPS = {op_init, op_field, op_wupa, op_reqa, op_select, op_halt};

static void pump_serial()
{
    const uint8_t *data;
    size_t n;
    while ((n = txq_peek(&tx, &data)) > 0) {
        int room = Serial.availableForWrite();
        if (room <= 0)
            return;   // never wait for the host: the scan loop goes on
        size_t w = Serial.write(data, n < (size_t)room ? n : (size_t)room);
        txq_consume(&tx, w);
        if (w == 0)
            return;
    }
}

void setup()
{
    Serial.begin(115200);
    SPI.begin();
    for (uint8_t a = 0; a < ANTS; a++) {
        pinMode(SS_PINS[a], OUTPUT);
        digitalWrite(SS_PINS[a], HIGH);   // every reader deselected before any talks
    }
    for (uint8_t a = 0; a < ANTS; a++) {
        chips[a] = new MFRC522(SS_PINS[a], RST_PIN);
        contexts[a] = chips[a];
    }
    txq_init(&tx);
    struct table_config cfg = {ANTS, 2, 3, 500, 5000};   // ON after 2 scans, OFF after 3; HB 0.5 s; SNAP 5 s
    table_init(&core, &cfg, &MFRC522_OPS, contexts, &tx, esp_random(), millis());
}

void loop()
{
    uint8_t buf[64];
    int n = 0;
    while (Serial.available() > 0 && n < (int)sizeof buf)
        buf[n++] = (uint8_t)Serial.read();
    if (n > 0)
        table_rx(&core, buf, (size_t)n, millis());
    table_poll(&core, millis());   // one antenna per call
    pump_serial();
    if (core.reset_asked) {
        Serial.flush();
        ESP.restart();
    }
}
