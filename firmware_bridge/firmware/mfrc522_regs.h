/* The MFRC522's register map, commands and bits (NXP MFRC522 datasheet, rev.
 * 3.9, section 9: "MFRC522 registers"), shared by the driver (mfrc522.c) and
 * the simulator's register-level model (sim/mfrc522_model.c), so that both
 * name the same bit the same way. Only what the driver uses is named. */
#ifndef BELOTE_MFRC522_REGS_H
#define BELOTE_MFRC522_REGS_H

/* Registers (6-bit addresses). On SPI the address byte is (reg << 1), with
 * bit 7 set to read: 0x80 | (reg << 1); bit 0 is always 0. */
enum mfrc522_reg {
    CommandReg = 0x01,     /* starts and stops commands; bit 4 PowerDown */
    ComIEnReg = 0x02,
    DivIEnReg = 0x03,
    ComIrqReg = 0x04,      /* interrupt request bits, see COM_IRQ_* */
    DivIrqReg = 0x05,
    ErrorReg = 0x06,       /* error bits of the last command, see ERR_* */
    Status1Reg = 0x07,
    Status2Reg = 0x08,
    FIFODataReg = 0x09,    /* 64-byte FIFO: write pushes, read pops */
    FIFOLevelReg = 0x0A,   /* bytes in the FIFO; writing bit 7 flushes it */
    WaterLevelReg = 0x0B,
    ControlReg = 0x0C,     /* bits 2-0 RxLastBits: valid bits of the last received byte */
    BitFramingReg = 0x0D,  /* bit 7 StartSend, bits 6-4 RxAlign, bits 2-0 TxLastBits */
    CollReg = 0x0E,        /* bit 7 ValuesAfterColl, bit 5 CollPosNotValid, bits 4-0 CollPos */
    ModeReg = 0x11,
    TxModeReg = 0x12,      /* bit 7 TxCRCEn, bits 6-4 TxSpeed */
    RxModeReg = 0x13,      /* bit 7 RxCRCEn, bits 6-4 RxSpeed */
    TxControlReg = 0x14,   /* bits 1-0 Tx2RFEn, Tx1RFEn: the antenna drivers (the field) */
    TxASKReg = 0x15,       /* bit 6 Force100ASK */
    RFCfgReg = 0x26,       /* bits 6-4 RxGain */
    TModeReg = 0x2A,       /* bit 7 TAuto, bits 3-0 TPrescaler_Hi */
    TPrescalerReg = 0x2B,  /* TPrescaler_Lo */
    TReloadRegH = 0x2C,
    TReloadRegL = 0x2D,
    VersionReg = 0x37      /* 0x91 (v1.0), 0x92 (v2.0); clones report others */
};

enum mfrc522_command {
    CMD_IDLE = 0x00,
    CMD_TRANSMIT = 0x04,   /* send the FIFO, then idle */
    CMD_RECEIVE = 0x08,
    CMD_TRANSCEIVE = 0x0C, /* send the FIFO (on StartSend), then receive */
    CMD_SOFT_RESET = 0x0F
};

#define COMMAND_MASK 0x0F
#define POWER_DOWN 0x10

#define COM_IRQ_SET1 0x80  /* written with the bits: 1 sets them, 0 clears them */
#define COM_IRQ_TX 0x40
#define COM_IRQ_RX 0x20
#define COM_IRQ_IDLE 0x10
#define COM_IRQ_ERR 0x02
#define COM_IRQ_TIMER 0x01
#define COM_IRQ_ALL 0x7F

#define ERR_BUFFER_OVFL 0x10
#define ERR_COLL 0x08
#define ERR_CRC 0x04
#define ERR_PARITY 0x02
#define ERR_PROTOCOL 0x01

#define FIFO_FLUSH 0x80
#define FIFO_SIZE 64
#define START_SEND 0x80
#define VALUES_AFTER_COLL 0x80
#define COLL_POS_NOT_VALID 0x20
#define ANTENNA_ON 0x03
#define FORCE_100_ASK 0x40
#define TAUTO 0x80

/* RxGain (RFCfgReg bits 6-4): 18, 23, 18, 23, 33, 38, 43, 48 dB. */
#define RX_GAIN_33DB 0x40
#define RX_GAIN_48DB 0x70
#define RX_GAIN_MASK 0x70

/* ISO/IEC 14443-3 type A commands (PCD -> PICC). */
#define PICC_REQA 0x26     /* 7-bit short frame: IDLE tags answer ATQA */
#define PICC_WUPA 0x52     /* 7-bit short frame: IDLE and HALT tags answer ATQA */
#define PICC_SEL_CL1 0x93  /* anticollision / select, cascade level 1 */
#define PICC_SEL_CL2 0x95
#define PICC_SEL_CL3 0x97
#define PICC_HLTA 0x50     /* 0x50 0x00 + CRC_A: the selected tag goes to HALT, no answer */
#define PICC_CASCADE_TAG 0x88   /* first UID byte of a level whose UID goes on */
#define NVB_SELECT 0x70    /* all 40 bits of the level: a SELECT, not an anticollision */
#define SAK_CASCADE 0x04   /* the UID is not complete: go on at the next level */

#endif
